import { describe, expect, it } from 'vitest';
import { parseFrame, stripMention } from './events.js';

const BOT = 'UBOT1';
const ctx = { botUserId: BOT, nowMs: 1_000 };
const envelope = (event: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ envelope_id: 'e1', type: 'events_api', accepts_response_payload: false, retry_attempt: 0, retry_reason: '', payload: { type: 'event_callback', team_id: 'T1', event_id: 'Ev1', event }, ...extra });
const dm = (fields: Record<string, unknown> = {}) => ({ type: 'message', channel_type: 'im', channel: 'D1', user: 'U1', text: 'hello', ts: '1700000000.000100', event_ts: '1700000000.000100', ...fields });
const mention = (fields: Record<string, unknown> = {}) => ({ type: 'app_mention', channel: 'C1', user: 'U1', text: `<@${BOT}> what now?`, ts: '1700000001.000200', ...fields });

describe('parseFrame', () => {
  it('reads hello and disconnect', () => {
    expect(parseFrame(JSON.stringify({ type: 'hello', num_connections: 1, connection_info: { app_id: 'A1' } }), ctx)).toEqual({ kind: 'hello' });
    expect(parseFrame(JSON.stringify({ type: 'disconnect', reason: 'refresh_requested', debug_info: { host: 'h' } }), ctx)).toEqual({ kind: 'disconnect', reason: 'refresh_requested' });
  });

  it('a DM: chat is the channel, no thread, message id the ts, direct', () => {
    expect(parseFrame(envelope(dm(), { retry_attempt: 2 }), ctx)).toEqual({
      kind: 'message',
      envelopeId: 'e1',
      retryAttempt: 2,
      message: { platform: 'slack', chatId: 'D1', threadId: null, messageId: '1700000000.000100', userId: 'U1', userName: null, text: 'hello', isDirect: true, receivedAt: 1_700_000_000_000 },
    });
  });

  it('a DM in a thread keeps the thread', () => {
    expect(parseFrame(envelope(dm({ thread_ts: '1699.1' })), ctx)).toMatchObject({ message: { threadId: '1699.1', isDirect: true } });
  });

  it('a top-level mention is threaded under itself; a mention in a thread stays in it; the mention is stripped', () => {
    expect(parseFrame(envelope(mention()), ctx)).toMatchObject({ kind: 'message', message: { chatId: 'C1', threadId: '1700000001.000200', messageId: '1700000001.000200', text: 'what now?', isDirect: false } });
    expect(parseFrame(envelope(mention({ thread_ts: '1690.5' })), ctx)).toMatchObject({ message: { threadId: '1690.5', messageId: '1700000001.000200' } });
  });

  it.each([
    ['the bot itself (user)', dm({ user: BOT }), /bot/],
    ['a bot (bot_id)', dm({ bot_id: 'B1' }), /bot/],
    ['an edit', dm({ subtype: 'message_changed' }), /subtype message_changed/],
    ['a join', mention({ subtype: 'channel_join' }), /subtype channel_join/],
    ['no text', dm({ text: undefined }), /without text/],
    ['only the mention', mention({ text: `<@${BOT}>` }), /without text/],
    ['a channel message without mention', dm({ channel_type: 'channel', channel: 'C1' }), /without a mention/],
    ['a reaction', { type: 'reaction_added', channel: 'C1', ts: '1.1' }, /reaction_added/],
  ])('skips %s, acknowledged, not malformed', (_name, event, reason) => {
    const parsed = parseFrame(envelope(event), ctx);
    expect(parsed).toMatchObject({ kind: 'skip', envelopeId: 'e1', malformed: false });
    expect(parsed.kind === 'skip' && parsed.reason).toMatch(reason);
  });

  it('skips other envelope types (slash commands, interactive) with their envelope id', () => {
    expect(parseFrame(JSON.stringify({ envelope_id: 'e2', type: 'slash_commands', payload: {} }), ctx)).toMatchObject({ kind: 'skip', envelopeId: 'e2', malformed: false });
  });

  it.each([
    ['not JSON', '{nope', null],
    ['an array', '[1]', null],
    ['no envelope_id', JSON.stringify({ type: 'events_api', payload: {} }), null],
    ['no payload', JSON.stringify({ envelope_id: 'e3', type: 'events_api' }), 'e3'],
    ['an event without ts', envelope({ type: 'message', channel: 'D1', channel_type: 'im', user: 'U1', text: 'x' }), 'e1'],
  ])('malformed: %s', (_name, text, envelopeId) => {
    expect(parseFrame(text, ctx)).toMatchObject({ kind: 'skip', envelopeId, malformed: true });
  });

  it('without a known bot id still skips bot_id posts and strips a leading mention', () => {
    const unknown = { botUserId: null, nowMs: 5 };
    expect(parseFrame(envelope(dm({ bot_id: 'B9', user: 'U9' })), unknown)).toMatchObject({ kind: 'skip' });
    expect(parseFrame(envelope(mention()), unknown)).toMatchObject({ message: { text: 'what now?' } });
  });
});

describe('stripMention', () => {
  it('removes the bot mention anywhere, with a label too, and leaves others', () => {
    expect(stripMention(`hi <@${BOT}|iris> and <@U2>`, BOT)).toBe('hi and <@U2>');
  });
});
