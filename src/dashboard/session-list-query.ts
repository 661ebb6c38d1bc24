// GET /api/sessions's query string → the store's search: the tab (who started the session), the
// source filter, the text and the page. Pure: every bad parameter is a message for a 400.
import type { SessionSearchQuery } from '../store/session-browser.js';

export const SESSION_TABS = ['chats', 'automation', 'all'] as const;
export type SessionTab = (typeof SESSION_TABS)[number];

/** The sources of sessions a person started: `iris chat` and the dashboard's Chat page. */
export const PERSON_SOURCES: readonly string[] = ['cli', 'dashboard'];

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;
/** A search text or a source longer than this is a mistake, not a query. */
export const MAX_TEXT = 200;

type SourceFilter = Pick<SessionSearchQuery, 'sourceIn' | 'sourceNotIn' | 'source' | 'sourcePrefix'>;

/** Chats: what a person started; Automation: everything else (webhook routes, chat platforms); All. */
export function tabFilter(tab: SessionTab): SourceFilter {
  if (tab === 'chats') return { sourceIn: PERSON_SOURCES };
  if (tab === 'automation') return { sourceNotIn: PERSON_SOURCES };
  return {};
}

/**
 * `webhook` or any value ending in `:` (`webhook:`) is a prefix: every source that starts with it
 * (`webhook:` + every route); anything else is one source exactly (`cli`, `webhook:pr-review`,
 * `telegram`). The same reading as `iris sessions list --source webhook`.
 */
export function sourceFilter(source: string): SourceFilter {
  if (source === 'webhook') return { sourcePrefix: 'webhook:' };
  if (source.endsWith(':')) return { sourcePrefix: source };
  return { source };
}

const KNOWN = ['tab', 'q', 'source', 'limit', 'offset'] as const;

export type ParsedListQuery = { readonly ok: true; readonly tab: SessionTab; readonly query: SessionSearchQuery } | { readonly ok: false; readonly error: string };

function wholeNumber(name: string, text: string, min: number, max: number): number | string {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
    return `${name} must be a whole number from ${min} to ${max} (got "${text.slice(0, 40)}")`;
  }
  return value;
}

// Control characters have no place in a title or a source, and would only make the search miss.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

export function parseListQuery(params: URLSearchParams): ParsedListQuery {
  for (const name of new Set(params.keys())) {
    if (!(KNOWN as readonly string[]).includes(name)) return { ok: false, error: `unknown parameter "${name.slice(0, 40)}" (known: ${KNOWN.join(', ')})` };
    if (params.getAll(name).length > 1) return { ok: false, error: `${name} is given more than once` };
  }
  const tabText = params.get('tab') ?? 'all';
  if (!(SESSION_TABS as readonly string[]).includes(tabText)) return { ok: false, error: `tab must be chats, automation or all (got "${tabText.slice(0, 40)}")` };
  const tab = tabText as SessionTab;
  const text = (params.get('q') ?? '').trim();
  if (text.length > MAX_TEXT) return { ok: false, error: `q is longer than ${MAX_TEXT} characters` };
  if (CONTROL.test(text)) return { ok: false, error: 'q holds a control character' };
  const source = (params.get('source') ?? '').trim();
  if (source.length > MAX_TEXT) return { ok: false, error: `source is longer than ${MAX_TEXT} characters` };
  if (CONTROL.test(source)) return { ok: false, error: 'source holds a control character' };
  const limit = params.has('limit') ? wholeNumber('limit', params.get('limit') ?? '', 1, MAX_LIMIT) : DEFAULT_LIMIT;
  if (typeof limit === 'string') return { ok: false, error: limit };
  const offset = params.has('offset') ? wholeNumber('offset', params.get('offset') ?? '', 0, Number.MAX_SAFE_INTEGER) : 0;
  if (typeof offset === 'string') return { ok: false, error: offset };
  return {
    ok: true,
    tab,
    query: { ...tabFilter(tab), ...(source === '' ? {} : sourceFilter(source)), ...(text === '' ? {} : { text }), limit, offset },
  };
}
