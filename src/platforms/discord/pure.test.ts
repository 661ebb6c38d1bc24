// The pure parts of the Discord adapter: frames and decisions, message parsing, send results and
// rate-limit bookkeeping.
import { describe, expect, it } from 'vitest';
import { isThread, parseMessageCreate, placeInChannel, readChannel, stripMention } from './messages.js';
import { closeDecision, firstHeartbeatDelay, gatewayConnectUrl, heartbeatFrame, identifyFrame, INTENTS, invalidSessionResumable, openingFrame, parsePayload, readReady } from './protocol.js';
import { readRateLimitHeaders, redactToken } from './rest.js';
import { classifySendFailure, noteRateLimit, waitBeforeSend } from './send-result.js';

const BOT = '900000000000000001';
const msg = (over: Record<string, unknown> = {}) => ({
  id: '100',
  channel_id: '200',
  type: 0,
  content: 'hi',
  timestamp: '2026-01-02T03:04:05.000Z',
  author: { id: '300', username: 'alice' },
  mentions: [],
  ...over,
});

describe('protocol', () => {
  it('intents are the documented bits', () => {
    expect([INTENTS.GUILD_MESSAGES, INTENTS.DIRECT_MESSAGES, INTENTS.MESSAGE_CONTENT]).toEqual([512, 4096, 32768]);
    expect(identifyFrame('t').d.intents & INTENTS.MESSAGE_CONTENT).toBe(INTENTS.MESSAGE_CONTENT);
  });
  it('RESUME when there is a session, IDENTIFY otherwise; heartbeats carry the seq', () => {
    expect(openingFrame('t', { id: 's', resumeUrl: 'wss://x', seq: 7 })).toEqual({ op: 6, d: { token: 't', session_id: 's', seq: 7 } });
    expect(openingFrame('t', null).op).toBe(2);
    expect(heartbeatFrame(null)).toEqual({ op: 1, d: null });
    expect(heartbeatFrame(4)).toEqual({ op: 1, d: 4 });
  });
  it('close codes: 4004 and the intents codes are fatal, 4007/4009 start anew, others resume', () => {
    expect(closeDecision(4004).next).toBe('fatal');
    expect(closeDecision(4014).detail).toContain('Message Content');
    expect(closeDecision(4009).next).toBe('identify');
    expect(closeDecision(4007).next).toBe('identify');
    expect(closeDecision(1006).next).toBe('resume');
    expect(closeDecision(4000).next).toBe('resume');
    expect(invalidSessionResumable(false)).toBe(false);
    expect(invalidSessionResumable(true)).toBe(true);
  });
  it('reads frames, READY and the connect URL', () => {
    expect(parsePayload('{"op":0,"s":3,"t":"X","d":{}}')).toEqual({ op: 0, s: 3, t: 'X', d: {} });
    expect(parsePayload('nope')).toBeNull();
    expect(parsePayload('{"d":1}')).toBeNull();
    expect(readReady({ session_id: 's', resume_gateway_url: 'wss://r', user: { id: BOT, username: 'iris' } })).toEqual({ sessionId: 's', resumeUrl: 'wss://r', botId: BOT, botName: 'iris' });
    expect(readReady({ session_id: 's' })).toBeNull();
    expect(gatewayConnectUrl('wss://gateway.discord.gg')).toBe('wss://gateway.discord.gg/?v=10&encoding=json');
    expect(firstHeartbeatDelay(1000, 0.5)).toBe(500);
  });
});

describe('messages', () => {
  it('a DM', () => {
    const parsed = parseMessageCreate(msg(), BOT, 0);
    expect(parsed).toEqual({ kind: 'message', guildId: null, message: { platform: 'discord', chatId: '200', threadId: null, messageId: '100', userId: '300', userName: 'alice', text: 'hi', isDirect: true, receivedAt: Date.parse('2026-01-02T03:04:05.000Z') } });
  });
  it('guild messages pass only with a mention, which is stripped', () => {
    expect(parseMessageCreate(msg({ guild_id: '9' }), BOT, 0)).toMatchObject({ kind: 'skip', malformed: false });
    const parsed = parseMessageCreate(msg({ guild_id: '9', content: `<@${BOT}> hello <@!${BOT}>`, mentions: [{ id: BOT }] }), BOT, 0);
    expect(parsed).toMatchObject({ kind: 'message', guildId: '9', message: { text: 'hello', isDirect: false } });
    expect(parseMessageCreate(msg({ guild_id: '9', content: `<@${BOT}>`, mentions: [{ id: BOT }] }), BOT, 0).kind).toBe('skip');
  });
  it('skips the bot itself, other bots, other types, empty content; malformed is flagged', () => {
    expect(parseMessageCreate(msg({ author: { id: BOT } }), BOT, 0)).toMatchObject({ kind: 'skip', malformed: false });
    expect(parseMessageCreate(msg({ author: { id: '5', bot: true } }), BOT, 0)).toMatchObject({ kind: 'skip' });
    expect(parseMessageCreate(msg({ type: 7 }), BOT, 0)).toMatchObject({ kind: 'skip' });
    expect(parseMessageCreate(msg({ type: 19 }), BOT, 0).kind).toBe('message');
    expect(parseMessageCreate(msg({ content: '   ' }), BOT, 0)).toMatchObject({ kind: 'skip' });
    expect(parseMessageCreate({ id: 1 }, BOT, 0)).toMatchObject({ kind: 'skip', malformed: true });
  });
  it('threads: the parent becomes the chat', () => {
    const thread = readChannel({ id: '200', type: 11, parent_id: '150' });
    expect(thread && isThread(thread)).toBe(true);
    const parsed = parseMessageCreate(msg({ guild_id: '9', content: `<@${BOT}> x`, mentions: [{ id: BOT }] }), BOT, 0);
    if (parsed.kind !== 'message') throw new Error('expected a message');
    expect(placeInChannel(parsed.message, thread)).toMatchObject({ chatId: '150', threadId: '200' });
    expect(placeInChannel(parsed.message, readChannel({ id: '200', type: 0, parent_id: '1' }))).toMatchObject({ chatId: '200', threadId: null });
    expect(placeInChannel(parsed.message, null)).toMatchObject({ chatId: '200', threadId: null });
    expect(stripMention(`hey <@${BOT}>, you`, BOT)).toBe('hey , you');
  });
});

describe('send results and rate limits', () => {
  const api = (status: number, over: object = {}) => ({ ok: false as const, kind: 'api' as const, status, code: 0, message: 'm', rateLimit: {}, ...over });
  it('classifies', () => {
    expect(classifySendFailure(api(429, { retryAfterMs: 2500 }))).toEqual({ ok: false, kind: 'retry', reason: 'Discord 429: m', retryAfterMs: 2500 });
    expect(classifySendFailure(api(502)).kind).toBe('retry');
    expect(classifySendFailure(api(400, { code: 50035 }))).toEqual({ ok: false, kind: 'permanent', reason: 'Discord 400: m (code 50035)' });
    expect(classifySendFailure({ ok: false, kind: 'network', reason: 'ECONNREFUSED', timedOut: false }).kind).toBe('retry');
  });
  it('Remaining 0 closes the route for Reset-After; a later answer with Remaining > 0 opens it', () => {
    const headers = readRateLimitHeaders(new Headers({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': '1.25', 'x-ratelimit-bucket': 'b' }));
    expect(headers).toEqual({ remaining: 0, resetAfterMs: 1250, bucket: 'b' });
    let limits = noteRateLimit(new Map(), 'r', headers, 1000);
    expect(waitBeforeSend(limits, 'r', 1000)).toBe(1250);
    expect(waitBeforeSend(limits, 'other', 1000)).toBe(0);
    expect(waitBeforeSend(limits, 'r', 3000)).toBe(0);
    limits = noteRateLimit(limits, 'r', { remaining: 3, resetAfterMs: 500 }, 1100);
    expect(waitBeforeSend(limits, 'r', 1100)).toBe(0);
    expect(waitBeforeSend(noteRateLimit(new Map(), 'r', {}, 0, 700), 'r', 0)).toBe(700);
  });
  it('redacts the token', () => {
    expect(redactToken('failed with abc.def in it', 'abc.def')).toBe('failed with <redacted> in it');
  });
});
