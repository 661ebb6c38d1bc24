import { describe, expect, it } from 'vitest';
import { formatLogEntry, logEntryJson, matchesFilter, parseLogLine } from './log-lines.js';

const PINO = JSON.stringify({ level: 'warn', time: '2026-11-28T18:00:40.554Z', pid: 7, log: 'gateway', route: 'ci', reason: 'bad signature', msg: 'webhook refused' });

describe('parseLogLine', () => {
  it('reads a pino line: time, level, message, the fields without the frame', () => {
    expect(parseLogLine('gateway', PINO)).toEqual({ source: 'gateway', time: '2026-11-28T18:00:40.554Z', level: 'warn', what: 'webhook refused', fields: { route: 'ci', reason: 'bad signature' } });
  });

  it('reads numeric levels and times', () => {
    expect(parseLogLine('agent', JSON.stringify({ level: 50, time: 0, msg: 'x' }))).toMatchObject({ level: 'error', time: '1970-01-01T00:00:00.000Z' });
  });

  it('reads an audit line: the action and its target are what; a refusal is a warning', () => {
    const line = JSON.stringify({ time: '2026-11-28T18:00:00.000Z', actor: 'dashboard:password', from: '10.0.0.2', action: 'sign_in', target: '', ok: false, reason: 'wrong password' });
    expect(parseLogLine('audit', line)).toEqual({ source: 'audit', time: '2026-11-28T18:00:00.000Z', level: 'warn', what: 'sign_in', fields: { ok: false, actor: 'dashboard:password', from: '10.0.0.2', reason: 'wrong password' } });
  });

  it('never gives back a secret, in a field or in the text', () => {
    const line = JSON.stringify({ level: 'info', time: 1, msg: 'called with Bearer abcdefghijklmnop', authorization: 'Bearer abcdefghijklmnop', api_key: 'sk-live-0123456789abcdef' });
    const text = formatLogEntry(parseLogLine('agent', line)!);
    expect(text).not.toContain('abcdefghijklmnop');
    expect(text).not.toContain('0123456789abcdef');
    expect(text).toContain('[redacted]');
    expect(formatLogEntry(parseLogLine('agent', 'not json sk-live-0123456789abcdef')!)).not.toContain('0123456789abcdef');
  });
});

describe('matchesFilter and the readable line', () => {
  const entry = parseLogLine('gateway', PINO)!;
  it('filters by level, route, platform and time', () => {
    expect(matchesFilter(entry, { minLevel: 'warn' })).toBe(true);
    expect(matchesFilter(entry, { minLevel: 'error' })).toBe(false);
    expect(matchesFilter(entry, { route: 'ci' })).toBe(true);
    expect(matchesFilter(entry, { route: 'other' })).toBe(false);
    expect(matchesFilter(entry, { platform: 'telegram' })).toBe(false);
    expect(matchesFilter(entry, { since: Date.parse('2026-11-28T18:00:00Z') })).toBe(true);
    expect(matchesFilter(entry, { since: Date.parse('2026-11-28T19:00:00Z') })).toBe(false);
  });

  it('filters by text in the message or a field, any case; an empty text matches all', () => {
    expect(matchesFilter(entry, { text: 'WEBHOOK ref' })).toBe(true);
    expect(matchesFilter(entry, { text: 'bad sig' })).toBe(true);
    expect(matchesFilter(entry, { text: 'route=ci' })).toBe(true);
    expect(matchesFilter(entry, { text: 'kiwi' })).toBe(false);
    expect(matchesFilter(entry, { text: '' })).toBe(true);
  });

  it('searches the redacted text: a secret cannot be found by typing it', () => {
    const secret = parseLogLine('agent', JSON.stringify({ level: 'info', time: 1, msg: 'key sk-live-0123456789abcdef used' }))!;
    expect(matchesFilter(secret, { text: '0123456789abcdef' })).toBe(false);
    expect(matchesFilter(secret, { text: 'sk-[redacted]' })).toBe(true);
  });

  it('prints time, level, log, what and the key fields', () => {
    expect(formatLogEntry(entry)).toBe('2026-11-28T18:00:40.554Z WARN  gateway webhook refused  route=ci reason="bad signature"');
    expect(logEntryJson(entry)).toEqual({ source: 'gateway', time: '2026-11-28T18:00:40.554Z', level: 'warn', what: 'webhook refused', fields: { route: 'ci', reason: 'bad signature' } });
  });
});
