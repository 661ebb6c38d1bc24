// Naming a session (`--session`, `iris sessions show|rename|delete|export`, `/resume`): the exact
// id, else a unique id prefix of 4 or more characters, else the exact title (the newest session
// that has it). The decision is pure; `findSession` gathers what it needs from the store.
import type { SessionRecord, Store } from '../../store/types.js';

export const MIN_ID_PREFIX = 4;
/** How many prefix matches are read: enough to name a few in the "ambiguous" message. */
const PREFIX_SAMPLE = 6;

export type SessionLookup = {
  readonly exact?: SessionRecord;
  /** Sessions whose id starts with the name (at most PREFIX_SAMPLE), newest first. */
  readonly byPrefix: readonly SessionRecord[];
  /** The newest session titled exactly the name. */
  readonly byTitle?: SessionRecord;
};

export type FoundSession =
  | { readonly ok: true; readonly session: SessionRecord; readonly how: 'id' | 'prefix' | 'title' }
  | { readonly ok: false; readonly code: 'not_found' | 'ambiguous'; readonly message: string };

export function decideSessionName(name: string, lookup: SessionLookup): FoundSession {
  if (lookup.exact) return { ok: true, session: lookup.exact, how: 'id' };
  const usablePrefix = name.length >= MIN_ID_PREFIX;
  if (usablePrefix && lookup.byPrefix.length === 1 && lookup.byPrefix[0]) return { ok: true, session: lookup.byPrefix[0], how: 'prefix' };
  if (lookup.byTitle) return { ok: true, session: lookup.byTitle, how: 'title' };
  if (usablePrefix && lookup.byPrefix.length > 1) {
    const shown = lookup.byPrefix.slice(0, PREFIX_SAMPLE - 1).map((s) => s.id);
    const more = lookup.byPrefix.length >= PREFIX_SAMPLE ? ', …' : '';
    return {
      ok: false,
      code: 'ambiguous',
      message: `"${name}" is the start of more than one session id (${shown.join(', ')}${more}); give more of the id`,
    };
  }
  const hint = name.length < MIN_ID_PREFIX && name.length > 0 ? ` (an id prefix needs at least ${MIN_ID_PREFIX} characters)` : '';
  return { ok: false, code: 'not_found', message: `no session with the id or title "${name}"${hint}; iris sessions list shows them` };
}

export async function findSession(store: Store, name: string): Promise<FoundSession> {
  const exact = await store.getSession(name);
  if (exact) return decideSessionName(name, { exact, byPrefix: [] });
  const byPrefix = name.length >= MIN_ID_PREFIX ? await store.listSessions({ idPrefix: name, limit: PREFIX_SAMPLE }) : [];
  const byTitle = byPrefix.length === 1 ? undefined : (await store.listSessions({ title: name, limit: 1 }))[0];
  return decideSessionName(name, { byPrefix, ...(byTitle ? { byTitle } : {}) });
}
