// The platform layer's pure rules: access, pairing codes, session keys, chat commands, the outbox's
// retry decisions, reply parts and plain text.
import { describe, expect, it } from 'vitest';
import { decideAccess, newPairingCode, normalisePairingCode, PAIRING_CODE_LENGTH, pairingReply } from './access.js';
import { parseChatCommand } from './chat-commands.js';
import { afterSend, OUTBOX_RETRY_MS } from './outbox-policy.js';
import { markdownToPlainText } from './plain-text.js';
import { prepareText, replyParts } from './reply-parts.js';
import { sessionKey } from './session-key.js';

describe('decideAccess', () => {
  const policy = { allowedUsers: ['7'], owners: ['5'], allowAll: false };
  it('allows listed, owners, approved, or everyone with allow_all', () => {
    expect(decideAccess(policy, { userId: '7', isDirect: false }, false)).toBe('allow');
    expect(decideAccess(policy, { userId: '8', isDirect: true }, true)).toBe('allow');
    expect(decideAccess({ allowedUsers: [], owners: [], allowAll: true }, { userId: '9', isDirect: false }, false)).toBe('allow');
  });
  it('an owner is let in without being in allowed_users, in a group too', () => {
    expect(decideAccess(policy, { userId: '5', isDirect: true }, false)).toBe('allow');
    expect(decideAccess(policy, { userId: '5', isDirect: false }, false)).toBe('allow');
    expect(decideAccess({ allowedUsers: [], owners: ['5'], allowAll: false }, { userId: '5', isDirect: false }, false)).toBe('allow');
  });
  it('denies by default: a pairing code in a direct message, nothing in a group', () => {
    expect(decideAccess(policy, { userId: '8', isDirect: true }, false)).toBe('pair');
    expect(decideAccess(policy, { userId: '8', isDirect: false }, false)).toBe('ignore');
    expect(decideAccess({ allowedUsers: [], owners: [], allowAll: false }, { userId: '7', isDirect: true }, false)).toBe('pair');
  });
});

describe('pairing codes', () => {
  it('are 8 characters of an alphabet without look-alikes', () => {
    let n = 0;
    const code = newPairingCode((bound) => n++ % bound);
    expect(code).toHaveLength(PAIRING_CODE_LENGTH);
    expect(code).toBe('ABCDEFGH');
    expect(newPairingCode((bound) => bound - 1)).toBe('99999999');
    expect(newPairingCode(() => 0)).not.toMatch(/[01OIL]/);
  });
  it('the reply names the command that approves it', () => {
    expect(pairingReply('telegram', 'ABCD2345')).toContain('iris pairing approve telegram ABCD2345');
  });
  it('a code typed in lower case or with spaces around is the same code', () => {
    expect(normalisePairingCode(' k7q2M9xd\n')).toBe('K7Q2M9XD');
  });
});

describe('sessionKey', () => {
  const base = { platform: 'telegram' as const, chatId: '-100', threadId: null, userId: '7', isDirect: false };
  it('is platform:chat, with the thread, and per user in groups by default', () => {
    expect(sessionKey({ ...base, isDirect: true, chatId: '7' }, true)).toBe('telegram:7');
    expect(sessionKey(base, true)).toBe('telegram:-100/7');
    expect(sessionKey(base, false)).toBe('telegram:-100');
    expect(sessionKey({ ...base, threadId: '12' }, true)).toBe('telegram:-100:12/7');
    expect(sessionKey({ ...base, threadId: '12' }, false)).toBe('telegram:-100:12');
  });
});

describe('parseChatCommand', () => {
  it.each([
    ['/new', { kind: 'new' }],
    ['/new@iris_bot', { kind: 'new' }],
    ['/help', { kind: 'help' }],
    ['/start', { kind: 'help' }],
    ['/sethome', { kind: 'sethome' }],
    ['/sethome@iris_bot', { kind: 'sethome' }],
    ['/model', { kind: 'model', line: '/model', global: false }],
    ['/model@iris_bot gpt-5 --global', { kind: 'model', line: '/model gpt-5 --global', global: true }],
    ['  /MODEL  sonnet ', { kind: 'model', line: '/model sonnet', global: false }],
    ['/model --global', { kind: 'model', line: '/model --global', global: true }],
    // parseModelCommand reads this --global as --provider's value; owner-only all the same.
    ['/model x --provider --global', { kind: 'model', line: '/model x --provider --global', global: true }],
    ['/model x --globally', { kind: 'model', line: '/model x --globally', global: false }],
    ['/approve K7Q2M9XD', { kind: 'approve', code: 'K7Q2M9XD' }],
    ['/approve@iris_bot  k7q2m9xd ', { kind: 'approve', code: 'K7Q2M9XD' }],
    ['/approve', { kind: 'approve', code: undefined }],
    ['/approve   ', { kind: 'approve', code: undefined }],
    ['/approve K7Q2 M9XD', { kind: 'approve', code: undefined }],
    ['/frobnicate now', { kind: 'unknown', name: 'frobnicate' }],
  ])('%j', (text, expected) => {
    expect(parseChatCommand(text)).toEqual(expected);
  });
  it.each(['hello', 'what does /new do?', '/ new', '/path/to/file', ''])('%j is not a command', (text) => {
    expect(parseChatCommand(text)).toBeUndefined();
  });
});

describe('afterSend', () => {
  const now = 1_000_000;
  it('sent', () => {
    expect(afterSend({ ok: true, messageId: '5' }, 0, now)).toEqual({ kind: 'sent', messageId: '5' });
  });
  it('retries at 5 s, 25 s, 120 s, then fails', () => {
    const retry = { ok: false as const, kind: 'retry' as const, reason: 'HTTP 500' };
    expect(OUTBOX_RETRY_MS).toEqual([5_000, 25_000, 120_000]);
    expect(afterSend(retry, 0, now)).toEqual({ kind: 'retry', at: now + 5_000, reason: 'HTTP 500' });
    expect(afterSend(retry, 1, now)).toEqual({ kind: 'retry', at: now + 25_000, reason: 'HTTP 500' });
    expect(afterSend(retry, 2, now)).toEqual({ kind: 'retry', at: now + 120_000, reason: 'HTTP 500' });
    expect(afterSend(retry, 3, now)).toEqual({ kind: 'failed', reason: 'HTTP 500 (after 4 attempts)' });
  });
  it('a 429 waits for its retry_after instead', () => {
    expect(afterSend({ ok: false, kind: 'retry', reason: '429', retryAfterMs: 7_000 }, 0, now)).toEqual({ kind: 'retry', at: now + 7_000, reason: '429' });
  });
  it('a permanent error is never retried', () => {
    expect(afterSend({ ok: false, kind: 'permanent', reason: 'HTTP 400: chat not found' }, 0, now)).toEqual({ kind: 'failed', reason: 'HTTP 400: chat not found' });
  });
});

describe('markdownToPlainText', () => {
  it('drops the markers and keeps the words and link addresses', () => {
    const md = '# Title\n\nSome **bold**, *italic*, _under_ and `code`.\n\n- one\n* two\n\n> quoted\n\n[docs](https://x.test/d) and ![pic](https://x.test/p.png)\n\n---\n~~gone~~ snake_case_name 2*3*4';
    expect(markdownToPlainText(md)).toBe(
      'Title\n\nSome bold, italic, under and code.\n\n- one\n- two\n\nquoted\n\ndocs (https://x.test/d) and pic (https://x.test/p.png)\n\ngone snake_case_name 2*3*4',
    );
  });
  it('keeps fenced code as it is, without the fences', () => {
    expect(markdownToPlainText('before\n```js\nconst a = **b**;\n```\nafter')).toBe('before\nconst a = **b**;\nafter');
  });
});

describe('replyParts', () => {
  it('strips Markdown for sms and signal, splits at the platform limit, numbers the parts', () => {
    expect(prepareText('sms', '**hi**')).toBe('hi');
    expect(prepareText('signal', '**hi**')).toBe('hi');
    expect(prepareText('telegram', '**hi**')).toBe('**hi**');
    expect(prepareText('telegram', '**hi**', { prepare: (t) => t.toUpperCase() })).toBe('**HI**');
    const parts = replyParts(undefined, 'sms', { chatId: '+15550001', threadId: null }, 'x'.repeat(1700), 'inbound:4');
    expect(parts.map((p) => [p.text.length, p.part, p.origin, p.chatId])).toEqual([
      [1600, 0, 'inbound:4', '+15550001'],
      [100, 1, 'inbound:4', '+15550001'],
    ]);
  });
  it('never enqueues an empty message', () => {
    expect(replyParts(undefined, 'telegram', { chatId: '1', threadId: '2' }, '', null)).toEqual([{ platform: 'telegram', chatId: '1', threadId: '2', text: '(empty)', origin: null, part: 0 }]);
  });
});
