// How a name becomes a session: id, then a unique prefix (4+), then the newest exact title.
import { describe, expect, it } from 'vitest';
import type { SessionRecord } from '../../store/types.js';
import { decideSessionName } from './find-session.js';

const session = (id: string, title: string | null = null): SessionRecord => ({
  id,
  source: 'cli',
  title,
  provider: 'openai',
  model: 'gpt-5',
  status: 'idle',
  createdAt: 1,
  updatedAt: 2,
});

describe('decideSessionName', () => {
  const a = session('s_aaaa11111111', 'Alpha');
  const b = session('s_aaaa22222222', 'Beta');

  it('takes the exact id first, whatever else matches', () => {
    expect(decideSessionName(a.id, { exact: a, byPrefix: [a, b], byTitle: b })).toEqual({ ok: true, session: a, how: 'id' });
  });

  it('takes a unique prefix of 4 or more characters', () => {
    expect(decideSessionName('s_aa', { byPrefix: [a] })).toEqual({ ok: true, session: a, how: 'prefix' });
  });

  it('never takes a prefix shorter than 4 characters', () => {
    expect(decideSessionName('s_a', { byPrefix: [a] })).toEqual({
      ok: false,
      code: 'not_found',
      message: 'no session with the id or title "s_a" (an id prefix needs at least 4 characters); iris sessions list shows them',
    });
  });

  it('falls to the title when the prefix is not unique, and reports the ambiguity when no title matches', () => {
    expect(decideSessionName('s_aaaa', { byPrefix: [a, b], byTitle: b })).toEqual({ ok: true, session: b, how: 'title' });
    expect(decideSessionName('s_aaaa', { byPrefix: [a, b] })).toEqual({
      ok: false,
      code: 'ambiguous',
      message: '"s_aaaa" is the start of more than one session id (s_aaaa11111111, s_aaaa22222222); give more of the id',
    });
  });

  it('names five of many and says there are more', () => {
    const many = Array.from({ length: 6 }, (_, i) => session(`s_bbbb${String(i).repeat(8)}`));
    const found = decideSessionName('s_bbbb', { byPrefix: many });
    expect(found).toMatchObject({ ok: false, code: 'ambiguous' });
    expect(found.ok ? '' : found.message).toBe(
      '"s_bbbb" is the start of more than one session id (s_bbbb00000000, s_bbbb11111111, s_bbbb22222222, s_bbbb33333333, s_bbbb44444444, …); give more of the id',
    );
  });

  it('takes the exact title when nothing else matches, and says so when nothing does', () => {
    expect(decideSessionName('Alpha', { byPrefix: [], byTitle: a })).toEqual({ ok: true, session: a, how: 'title' });
    expect(decideSessionName('Gamma', { byPrefix: [] })).toEqual({
      ok: false,
      code: 'not_found',
      message: 'no session with the id or title "Gamma"; iris sessions list shows them',
    });
  });
});
