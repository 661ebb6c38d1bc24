import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeSlack, type FakeSlack } from './slack-api.js';

let fake: FakeSlack | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

const post = async (slack: FakeSlack, method: string, token: string, body: unknown = {}) => {
  const response = await fetch(`${slack.url}/${method}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json().catch(() => null)) as Record<string, unknown> | null };
};

type Frame = Record<string, unknown>;
async function connect(slack: FakeSlack): Promise<{ socket: WebSocket; frames: Frame[]; next: (n: number) => Promise<Frame[]> }> {
  const open = await post(slack, 'apps.connections.open', slack.appToken);
  const socket = new WebSocket(String(open.body?.url));
  const frames: Frame[] = [];
  socket.on('message', (data) => frames.push(JSON.parse(Buffer.from(data as Buffer).toString('utf8')) as Frame));
  await new Promise((resolve) => socket.once('open', resolve));
  const next = async (n: number) => {
    const deadline = Date.now() + 5000;
    while (frames.length < n) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${n} frames, have ${frames.length}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return frames.slice(0, n);
  };
  return { socket, frames, next };
}

describe('fake Slack Web API', () => {
  it('answers auth.test and chat.postMessage with the bot token, invalid_auth with another', async () => {
    fake = await startFakeSlack();
    expect((await post(fake, 'auth.test', fake.botToken)).body).toMatchObject({ ok: true, user_id: fake.botUserId });
    expect((await post(fake, 'auth.test', 'xoxb-wrong')).body).toEqual({ ok: false, error: 'invalid_auth' });
    expect((await post(fake, 'apps.connections.open', fake.botToken)).body).toMatchObject({ ok: false });
    const sent = await post(fake, 'chat.postMessage', fake.botToken, { channel: 'D1', text: '*hi*', thread_ts: '1.2', mrkdwn: true });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ ok: true, channel: 'D1' });
    expect(fake.sent).toEqual([expect.objectContaining({ channel: 'D1', text: '*hi*', thread_ts: '1.2', mrkdwn: true })]);
  });

  it('fails the next calls as told: 200 ok:false, 429 with Retry-After, 5xx', async () => {
    fake = await startFakeSlack();
    fake.failNext('chat.postMessage', { error: 'channel_not_found' });
    fake.failNext('chat.postMessage', { status: 429, retryAfter: 2 });
    fake.failNext('chat.postMessage', { status: 503 });
    const body = { channel: 'C1', text: 'x' };
    expect(await post(fake, 'chat.postMessage', fake.botToken, body)).toMatchObject({ status: 200, body: { ok: false, error: 'channel_not_found' } });
    expect(await post(fake, 'chat.postMessage', fake.botToken, body)).toMatchObject({ status: 429, retryAfter: '2', body: { ok: false, error: 'ratelimited' } });
    expect((await post(fake, 'chat.postMessage', fake.botToken, body)).status).toBe(503);
    expect((await post(fake, 'chat.postMessage', fake.botToken, body)).body).toMatchObject({ ok: true });
    expect(fake.sent).toHaveLength(1);
  });
});

describe('fake Slack message metadata and history', () => {
  const metadata = (key: string) => ({ event_type: 'iris_outbox', event_payload: { key } });

  it('keeps a post\'s metadata, refuses a malformed one, and shows it in history only when asked', async () => {
    fake = await startFakeSlack();
    const posted = await post(fake, 'chat.postMessage', fake.botToken, { channel: 'C1', text: 'one', metadata: metadata('iris-1') });
    expect(posted.body).toMatchObject({ ok: true, message: { text: 'one', metadata: metadata('iris-1') } });
    // As JSON text too (a form-encoded post sends it so).
    await post(fake, 'chat.postMessage', fake.botToken, { channel: 'C1', text: 'two', metadata: JSON.stringify(metadata('iris-2')) });
    expect((await post(fake, 'chat.postMessage', fake.botToken, { channel: 'C1', text: 'x', metadata: '{nope' })).body).toEqual({ ok: false, error: 'invalid_metadata_format' });
    expect((await post(fake, 'chat.postMessage', fake.botToken, { channel: 'C1', text: 'x', metadata: { event_type: 'Bad Type', event_payload: {} } })).body).toEqual({
      ok: false,
      error: 'invalid_metadata_schema',
    });
    const plain = await post(fake, 'conversations.history', fake.botToken, { channel: 'C1' });
    expect(plain.body).toMatchObject({ ok: true, has_more: false, messages: [{ text: 'two' }, { text: 'one' }] });
    expect((plain.body?.messages as Array<Record<string, unknown>>)[0]).not.toHaveProperty('metadata');
    const full = await post(fake, 'conversations.history', fake.botToken, { channel: 'C1', include_all_metadata: true });
    expect(full.body).toMatchObject({ messages: [{ text: 'two', metadata: metadata('iris-2') }, { text: 'one', metadata: metadata('iris-1') }] });
    expect((await post(fake, 'conversations.history', 'xoxb-wrong', { channel: 'C1' })).body).toEqual({ ok: false, error: 'invalid_auth' });
  });

  it('pages history newest first, and lists a thread with conversations.replies', async () => {
    fake = await startFakeSlack();
    for (const text of ['a', 'b', 'c']) await post(fake, 'chat.postMessage', fake.botToken, { channel: 'C1', text });
    const parent = fake.sent[0]!.ts;
    await post(fake, 'chat.postMessage', fake.botToken, { channel: 'C1', text: 'in thread', thread_ts: parent, metadata: metadata('iris-9') });
    const first = await post(fake, 'conversations.history', fake.botToken, { channel: 'C1', limit: 2 });
    expect(first.body).toMatchObject({ has_more: true, messages: [{ text: 'c' }, { text: 'b' }] });
    const cursor = (first.body?.response_metadata as { next_cursor: string }).next_cursor;
    expect((await post(fake, 'conversations.history', fake.botToken, { channel: 'C1', limit: 2, cursor })).body).toMatchObject({ has_more: false, messages: [{ text: 'a' }] });
    expect((await post(fake, 'conversations.replies', fake.botToken, { channel: 'C1', ts: parent, include_all_metadata: true })).body).toMatchObject({
      messages: [{ text: 'a' }, { text: 'in thread', metadata: metadata('iris-9') }],
    });
  });

  it('carries out a post whose answer it then loses', async () => {
    fake = await startFakeSlack();
    fake.loseAnswerNext('chat.postMessage');
    await expect(post(fake, 'chat.postMessage', fake.botToken, { channel: 'C1', text: 'taken' })).rejects.toThrow();
    expect(fake.sent.map((m) => m.text)).toEqual(['taken']);
    expect((await post(fake, 'chat.postMessage', fake.botToken, { channel: 'C1', text: 'next' })).body).toMatchObject({ ok: true });
  });
});

describe('fake Slack Socket Mode', () => {
  it('says hello, sends envelopes, records acks', async () => {
    fake = await startFakeSlack();
    const { socket, next } = await connect(fake);
    expect((await next(1))[0]).toMatchObject({ type: 'hello', connection_info: { app_id: 'A0001' } });
    const ts = fake.pushMessage({ user: 'U1', channel: 'D1', text: 'hello' });
    const envelope = (await next(2))[1]!;
    expect(envelope).toMatchObject({ type: 'events_api', accepts_response_payload: false, retry_attempt: 0, payload: { type: 'event_callback', event: { type: 'message', channel_type: 'im', user: 'U1', text: 'hello', ts, channel: 'D1' } } });
    socket.send(JSON.stringify({ envelope_id: envelope.envelope_id }));
    await fake.waitFor(() => fake!.acks.length === 1);
    expect(fake.envelopes[0]!.acked).toBe(true);
    socket.close();
  });

  it('re-sends an unacked envelope under a new envelope_id with retry_attempt', async () => {
    fake = await startFakeSlack({ ackTimeoutMs: 100 });
    const { socket, next } = await connect(fake);
    const ts = fake.pushMention({ user: 'U1', channel: 'C1', text: 'hi' });
    const [, first, again] = await next(3);
    expect(first!.payload).toMatchObject({ event: { type: 'app_mention', text: `<@${fake.botUserId}> hi`, ts } });
    expect(again!.envelope_id).not.toBe(first!.envelope_id);
    expect(again).toMatchObject({ retry_attempt: 1, payload: { event: { ts } } });
    socket.send(JSON.stringify({ envelope_id: again!.envelope_id }));
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(fake.envelopes).toHaveLength(2);
    socket.close();
  });

  it('sends disconnect with a reason and closes; drops; queues events while nobody is connected', async () => {
    fake = await startFakeSlack();
    const first = await connect(fake);
    await first.next(1);
    const closed = new Promise((resolve) => first.socket.once('close', resolve));
    fake.disconnect('warning');
    await closed;
    expect(first.frames[1]).toMatchObject({ type: 'disconnect', reason: 'warning' });
    const ts = fake.pushMessage({ user: 'U1', channel: 'D1', text: 'while away' });
    const second = await connect(fake);
    const frames = await second.next(2);
    expect(frames[1]).toMatchObject({ payload: { event: { ts } } });
    const dropped = new Promise((resolve) => second.socket.once('close', resolve));
    fake.dropSocket();
    await dropped;
    expect(fake.connections()).toBe(2);
  });
});
