import { describe, expect, it } from 'vitest';
import { loadCursor, parseSavedSession } from './session-cursor.js';

describe('parseSavedSession', () => {
  it('reads a saved session', () => {
    expect(parseSavedSession('{"id":"abc","resumeUrl":"wss://gw.example","seq":42,"botId":"7"}')).toEqual({ session: { id: 'abc', resumeUrl: 'wss://gw.example', seq: 42 }, botId: '7' });
  });
  it.each([undefined, '', 'null', '{', '[]', '{"id":"abc","resumeUrl":"wss://x","seq":-1,"botId":"7"}', '{"id":"","resumeUrl":"wss://x","seq":1,"botId":"7"}', '{"id":"a","resumeUrl":"http://x","seq":1,"botId":"7"}', '{"id":"a","resumeUrl":"wss://x","seq":1.5,"botId":"7"}', '{"id":"a","resumeUrl":"wss://x","seq":1}'])('%j is no session', (text) => {
    expect(parseSavedSession(text)).toBeUndefined();
  });
  it('a cursor that cannot be read is no session, with a warning', async () => {
    const warnings: string[] = [];
    const log = { debug: () => {}, info: () => {}, warn: (_: object, m: string) => void warnings.push(m), error: () => {} };
    expect(await loadCursor({ load: () => Promise.reject(new Error('disk')) }, log)).toBeUndefined();
    expect(await loadCursor(undefined, log)).toBeUndefined();
    expect(warnings).toEqual(['Discord: the saved session could not be read; identifying anew']);
  });
});
