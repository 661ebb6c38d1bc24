import { afterEach, describe, expect, it } from 'vitest';
import { startFakeSlack, type FakeSlack } from '../../../test/fakes/slack-api.js';
import type { InboundMessage, PlatformAdapter, PlatformLog } from '../types.js';
import { createSlackAdapter } from './adapter.js';

type Line = { level: string; fields: object; message: string };
const logs: Line[] = [];
const log: PlatformLog = {
  debug: (fields, message) => logs.push({ level: 'debug', fields, message }),
  info: (fields, message) => logs.push({ level: 'info', fields, message }),
  warn: (fields, message) => logs.push({ level: 'warn', fields, message }),
  error: (fields, message) => logs.push({ level: 'error', fields, message }),
};

let fake: FakeSlack | null = null;
let adapter: PlatformAdapter | null = null;
afterEach(async () => {
  await adapter?.stop();
  await fake?.close();
  adapter = null;
  fake = null;
  logs.length = 0;
});

async function setup(options: { ackTimeoutMs?: number; env?: Record<string, string>; pingIntervalMs?: number } = {}) {
  const slack = await startFakeSlack({ ackTimeoutMs: options.ackTimeoutMs ?? 300 });
  fake = slack;
  const env = options.env ?? { SLACK_BOT_TOKEN: slack.botToken, SLACK_APP_TOKEN: slack.appToken };
  const made = createSlackAdapter({ extra: { api_base: slack.url }, env, log, backoff: { firstMs: 20, maxMs: 200 }, ...(options.pingIntervalMs ? { pingIntervalMs: options.pingIntervalMs } : {}) });
  adapter = made;
  return { slack, adapter: made };
}

async function started(sink: (message: InboundMessage) => Promise<void>) {
  const { slack, adapter: made } = await setup();
  await made.start(sink);
  await slack.waitFor(() => made.state().connected, 5000, 'connected');
  return { slack, adapter: made };
}

describe('slack adapter: receiving', () => {
  it('connects, hands DMs and mentions to the sink, acks after the sink resolved', async () => {
    const got: InboundMessage[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { slack, adapter: made } = await started(async (message) => {
      got.push(message);
      await gate;
    });
    expect(made.state()).toEqual({ connected: true, detail: 'connected as @iris' });
    const ts = slack.pushMessage({ user: 'U1', channel: 'D1', text: 'hi' });
    await slack.waitFor(() => got.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(slack.acks).toHaveLength(0);
    release();
    await slack.waitFor(() => slack.acks.length === 1);
    expect(slack.acks[0]!.envelope_id).toBe(slack.envelopes[0]!.envelope_id);
    expect(got[0]).toMatchObject({ platform: 'slack', chatId: 'D1', threadId: null, messageId: ts, userId: 'U1', text: 'hi', isDirect: true });
    const mentionTs = slack.pushMention({ user: 'U2', channel: 'C1', text: 'help' });
    await slack.waitFor(() => got.length === 2);
    expect(got[1]).toMatchObject({ chatId: 'C1', threadId: mentionTs, messageId: mentionTs, text: 'help', isDirect: false });
  });

  it('a sink rejection is not acked; the re-sent envelope (new envelope_id) is delivered again', async () => {
    const got: InboundMessage[] = [];
    let fail = true;
    const { slack } = await started(async (message) => {
      got.push(message);
      if (fail) {
        fail = false;
        throw new Error('disk full');
      }
    });
    const ts = slack.pushMessage({ user: 'U1', channel: 'D1', text: 'again' });
    await slack.waitFor(() => slack.acks.length === 1, 5000, 'ack of the re-send');
    expect(got.map((message) => message.messageId)).toEqual([ts, ts]);
    expect(slack.envelopes).toHaveLength(2);
    expect(slack.envelopes[1]!.envelope_id).not.toBe(slack.envelopes[0]!.envelope_id);
    expect(slack.acks[0]!.envelope_id).toBe(slack.envelopes[1]!.envelope_id);
    expect(logs.some((line) => line.level === 'warn' && /not acknowledged/.test(line.message))).toBe(true);
  });

  it("skips the bot's own posts and bot messages (acked, nothing delivered)", async () => {
    const got: InboundMessage[] = [];
    const { slack } = await started(async (message) => {
      got.push(message);
    });
    slack.pushMessage({ user: slack.botUserId, channel: 'D1', text: 'my own answer' });
    slack.pushMessage({ user: 'U1', channel: 'D1', text: 'from a bot', botId: 'B77' });
    slack.pushMessage({ user: 'U1', channel: 'D1', text: 'edited', subtype: 'message_changed' });
    await slack.waitFor(() => slack.acks.length === 3);
    expect(got).toEqual([]);
  });

  it('malformed envelopes are logged and skipped; the next one is delivered', async () => {
    const got: InboundMessage[] = [];
    const { slack } = await started(async (message) => {
      got.push(message);
    });
    slack.pushRawFrame('{not json');
    slack.pushRawEnvelope({ envelope_id: 'bad-1', type: 'events_api', payload: { type: 'event_callback', event: { type: 'message' } } });
    slack.pushMessage({ user: 'U1', channel: 'D1', text: 'fine' });
    await slack.waitFor(() => got.length === 1);
    expect(got[0]!.text).toBe('fine');
    expect(logs.filter((line) => line.level === 'warn' && /skipped/.test(line.message))).toHaveLength(2);
    expect(slack.acks.map((ack) => ack.envelope_id)).toContain('bad-1');
  });

  it('reconnects after a disconnect frame and after a dropped socket; an event sent meanwhile arrives once', async () => {
    const got: InboundMessage[] = [];
    const { slack, adapter: made } = await started(async (message) => {
      got.push(message);
    });
    slack.disconnect('refresh_requested');
    await slack.waitFor(() => slack.connections() === 2 && made.state().connected, 5000, 'second connection');
    slack.refuseSockets(true);
    slack.dropSocket();
    await slack.waitFor(() => !made.state().connected, 5000, 'disconnected state');
    expect(made.state().detail).toMatch(/reconnecting/);
    slack.pushMessage({ user: 'U1', channel: 'D1', text: 'during the drop' });
    slack.refuseSockets(false);
    await slack.waitFor(() => got.length === 1 && made.state().connected, 5000, 'delivered after reconnect');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(got.map((message) => message.text)).toEqual(['during the drop']);
    expect(logs.some((line) => /Slack asked to reconnect/.test(line.message))).toBe(true);
  });

  it('a socket that stops answering pings is dropped and replaced', async () => {
    const { slack, adapter: made } = await setup({ pingIntervalMs: 100 });
    await made.start(async () => undefined);
    await slack.waitFor(() => made.state().connected, 5000, 'connected');
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(slack.connections()).toBe(1);
    slack.mutePongs(true);
    await slack.waitFor(() => logs.some((line) => /no pong from Slack/.test(line.message)), 5000, 'the dead socket noticed');
    slack.mutePongs(false);
    await slack.waitFor(() => slack.connections() === 2 && made.state().connected, 5000, 'a new socket');
  });

  it('stop() closes the socket and does not reconnect', async () => {
    const { slack, adapter: made } = await started(async () => undefined);
    const began = Date.now();
    await made.stop();
    expect(Date.now() - began).toBeLessThan(1_500);
    expect(made.state()).toEqual({ connected: false, detail: 'stopped' });
    await slack.waitFor(() => slack.openSockets() === 0, 2000, 'the socket closed');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(slack.connections()).toBe(1);
  });

  it('without tokens: not started, says which is missing', async () => {
    const { adapter: made } = await setup({ env: { SLACK_BOT_TOKEN: 'xoxb-1' } });
    await made.start(async () => undefined);
    expect(made.state()).toEqual({ connected: false, detail: 'SLACK_APP_TOKEN is not set in .env' });
  });

  it('a refused app token: not connected, names the variable, never the token', async () => {
    const { slack, adapter: made } = await setup({ env: { SLACK_BOT_TOKEN: 'xoxb-111-222-fakebottoken', SLACK_APP_TOKEN: 'xapp-wrong-secret' } });
    await made.start(async () => undefined);
    await slack.waitFor(() => /SLACK_APP_TOKEN/.test(made.state().detail), 5000);
    expect(made.state().detail).toBe('Slack refused the app-level token in SLACK_APP_TOKEN (invalid_auth)');
    expect(JSON.stringify(logs)).not.toMatch(/xapp-wrong-secret|fakebottoken/);
  });
});

describe('slack adapter: send and check', () => {
  it('posts mrkdwn to the channel, in the thread when there is one', async () => {
    const { slack, adapter: made } = await setup();
    expect(await made.send({ chatId: 'C1', threadId: '1700.1', text: '**done**: [docs](https://x.y)' })).toMatchObject({ ok: true });
    expect(await made.send({ chatId: 'D1', threadId: null, text: 'plain' })).toMatchObject({ ok: true });
    expect(slack.sent).toEqual([
      expect.objectContaining({ channel: 'C1', thread_ts: '1700.1', text: '*done*: <https://x.y|docs>', mrkdwn: true }),
      expect.objectContaining({ channel: 'D1', thread_ts: undefined, text: 'plain' }),
    ]);
  });

  it('every post of an outbox row carries its key in metadata', async () => {
    const { slack, adapter: made } = await setup();
    await made.send({ chatId: 'C1', threadId: null, text: 'a', key: 'iris-1' });
    await made.send({ chatId: 'C1', threadId: '1.1', text: 'b', key: 'iris-2' });
    expect(slack.sent.map((m) => m.metadata)).toEqual([
      { event_type: 'iris_outbox', event_payload: { key: 'iris-1' } },
      { event_type: 'iris_outbox', event_payload: { key: 'iris-2' } },
    ]);
    // A first try never looks: it costs no history call.
    expect(slack.calls('conversations.history')).toEqual([]);
  });

  it('a row that may have gone out is looked up first: found, it is not posted again', async () => {
    const { slack, adapter: made } = await setup();
    // The first try reached Slack, and its sender never heard back (it died, or the answer was lost).
    slack.loseAnswerNext('chat.postMessage');
    expect(await made.send({ chatId: 'C1', threadId: null, text: 'once', key: 'iris-5' })).toMatchObject({ ok: false, kind: 'retry' });
    const again = await made.send({ chatId: 'C1', threadId: null, text: 'once', key: 'iris-5', mayHaveBeenSent: true });
    expect(again).toEqual({ ok: true, messageId: slack.sent[0]!.ts });
    expect(slack.sent.map((m) => m.text)).toEqual(['once']);
    expect(slack.calls('conversations.history')[0]?.params).toMatchObject({ channel: 'C1', include_all_metadata: true });
    // In a thread: the thread's replies are where it would be.
    slack.loseAnswerNext('chat.postMessage');
    await made.send({ chatId: 'C1', threadId: slack.sent[0]!.ts, text: 'reply', key: 'iris-6' });
    expect(await made.send({ chatId: 'C1', threadId: slack.sent[0]!.ts, text: 'reply', key: 'iris-6', mayHaveBeenSent: true })).toMatchObject({ ok: true });
    expect(slack.sent.map((m) => m.text)).toEqual(['once', 'reply']);
  });

  it('a row that may have gone out and did not is posted; a lookup that fails posts anyway (at least once)', async () => {
    const { slack, adapter: made } = await setup();
    expect(await made.send({ chatId: 'C1', threadId: null, text: 'first', key: 'iris-8', mayHaveBeenSent: true })).toMatchObject({ ok: true });
    slack.failNext('conversations.history', { error: 'missing_scope' });
    expect(await made.send({ chatId: 'C1', threadId: null, text: 'second', key: 'iris-9', mayHaveBeenSent: true })).toMatchObject({ ok: true });
    expect(slack.sent.map((m) => m.text)).toEqual(['first', 'second']);
  });

  it('429 → retry after Retry-After; 500 → retry; channel_not_found → permanent', async () => {
    const { slack, adapter: made } = await setup();
    slack.failNext('chat.postMessage', { status: 429, retryAfter: 4 });
    slack.failNext('chat.postMessage', { status: 500 });
    slack.failNext('chat.postMessage', { error: 'channel_not_found' });
    const message = { chatId: 'C1', threadId: null, text: 'x' };
    expect(await made.send(message)).toMatchObject({ ok: false, kind: 'retry', retryAfterMs: 4000 });
    expect(await made.send(message)).toMatchObject({ ok: false, kind: 'retry' });
    expect(await made.send(message)).toEqual({ ok: false, kind: 'permanent', reason: 'Slack: channel_not_found' });
  });

  it('check: both tokens work; a bad bot or app token is named as such', async () => {
    const { slack, adapter: made } = await setup();
    expect(await made.check()).toEqual({ ok: true, detail: '@iris in Iris Test; Socket Mode available' });
    const badBot = createSlackAdapter({ extra: { api_base: slack.url }, env: { SLACK_BOT_TOKEN: 'xoxb-nope', SLACK_APP_TOKEN: slack.appToken }, log });
    expect(await badBot.check()).toEqual({ ok: false, reason: 'Slack rejected the bot token in SLACK_BOT_TOKEN (invalid_auth)', cause: 'credentials' });
    const badApp = createSlackAdapter({ extra: { api_base: slack.url }, env: { SLACK_BOT_TOKEN: slack.botToken, SLACK_APP_TOKEN: 'xapp-nope' }, log });
    expect(await badApp.check()).toEqual({ ok: false, reason: 'Slack rejected the app-level token in SLACK_APP_TOKEN (invalid_auth)', cause: 'credentials' });
    const away = createSlackAdapter({ extra: { api_base: 'http://127.0.0.1:9/api' }, env: { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1' }, log });
    expect(await away.check()).toMatchObject({ ok: false, cause: 'unreachable' });
  });
});
