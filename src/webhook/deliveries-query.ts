// Which deliveries to list (the Deliveries API's query: route, state, limit; `iris webhook
// deliveries --state`) and an event id in a path. Pure: text in, a value or the message a 400
// (or a usage error) says.
import { checkName } from '../security/names.js';
import { WEBHOOK_EVENT_STATES, type WebhookEventState } from '../store/webhook-types.js';

export const DEFAULT_DELIVERIES_LIMIT = 50;
export const MAX_DELIVERIES_LIMIT = 500;

export type DeliveriesQuery = { readonly route?: string; readonly state?: WebhookEventState; readonly limit: number };

const KNOWN = ['route', 'state', 'limit'];
const shown = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);

/** Duplicates are answered by the listener and never stored: there is no event to list. */
export const DUPLICATE_NOTE =
  'duplicates are not stored as events: the listener answers them 200 {"status":"duplicate"} and logs "webhook duplicate delivery" in gateway.log (see the Logs page)';

export function parseDeliveriesQuery(params: URLSearchParams): { ok: true; query: DeliveriesQuery } | { ok: false; error: string } {
  for (const name of params.keys()) if (!KNOWN.includes(name)) return { ok: false, error: `unknown parameter ${shown(name)} (known: ${KNOWN.join(', ')})` };
  const route = params.get('route') ?? '';
  if (route !== '') {
    const checked = checkName('route', route);
    if (!checked.ok) return { ok: false, error: checked.error };
  }
  const stateText = params.get('state') ?? '';
  const state = stateText === '' ? undefined : parseDeliveryState(stateText);
  if (state !== undefined && !state.ok) return state;
  const limitText = params.get('limit');
  const limit = limitText === null ? DEFAULT_DELIVERIES_LIMIT : Number(limitText);
  if (limitText !== null && (!/^\d+$/.test(limitText) || !Number.isSafeInteger(limit) || limit < 1 || limit > MAX_DELIVERIES_LIMIT)) {
    return { ok: false, error: `limit must be a whole number from 1 to ${MAX_DELIVERIES_LIMIT} (got ${shown(limitText)})` };
  }
  return { ok: true, query: { ...(route === '' ? {} : { route }), ...(state === undefined ? {} : { state: state.state }), limit } };
}

/** A state to list by: one an event can be in (`duplicate` is not one: DUPLICATE_NOTE says why). */
export function parseDeliveryState(text: string): { ok: true; state: WebhookEventState } | { ok: false; error: string } {
  if (text === 'duplicate') return { ok: false, error: `state "duplicate": ${DUPLICATE_NOTE}` };
  if (!(WEBHOOK_EVENT_STATES as readonly string[]).includes(text)) return { ok: false, error: `state must be one of ${WEBHOOK_EVENT_STATES.join(', ')} (got ${shown(text)})` };
  return { ok: true, state: text as WebhookEventState };
}

/** An inbox event id as the list shows it (`12`); undefined for anything else. */
export function parseEventId(text: string): number | undefined {
  if (!/^[1-9]\d{0,15}$/.test(text)) return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : undefined;
}
