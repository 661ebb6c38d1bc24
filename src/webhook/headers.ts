// Reading a webhook request's headers: which event it is and which delivery it is. Each code host
// names these differently, so the order of the lists below is the contract (DECISIONS.md "Webhook
// listener", steps 7 and 9).
import { createHash } from 'node:crypto';

/** node:http's `IncomingHttpHeaders`: names are lowercase, repeated headers may be arrays. */
export type HeaderBag = Readonly<Record<string, string | string[] | undefined>>;

/** The first present header wins. Forgejo sends Gitea's headers under its own name too. */
export const EVENT_HEADERS = [
  'x-forge-event',
  'x-github-event',
  'x-alt-forge-event',
  'x-gitlab-event',
  'x-gitea-event',
  'x-forgejo-event',
] as const;

/** In order of preference: the code host's own id, a proxy's request id, then GitLab's keys. */
export const DELIVERY_HEADERS = [
  'x-forge-delivery',
  'x-github-delivery',
  'x-request-id',
  'idempotency-key',
  'x-gitlab-event-uuid',
] as const;

/** Longer delivery ids are replaced by their hash; see `deliveryIdOf`. */
export const MAX_DELIVERY_ID_LENGTH = 200;

export type DeliveryId = { readonly id: string; readonly deduplicate: boolean };

/** The first value of a header, trimmed; absent or empty → undefined. The name is case-insensitive. */
export function headerValue(headers: HeaderBag, name: string): string | undefined {
  const lower = name.toLowerCase();
  let raw = headers[lower];
  if (raw === undefined) {
    // node:http lowercases every name; a hand-built bag may not have.
    const key = Object.keys(headers).find((k) => k.toLowerCase() === lower);
    raw = key === undefined ? undefined : headers[key];
  }
  const first = Array.isArray(raw) ? raw[0] : raw;
  const value = first?.trim();
  return value === '' ? undefined : value;
}

function firstHeader(headers: HeaderBag, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = headerValue(headers, name);
    if (value !== undefined) return value;
  }
  return undefined;
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The event name: a header, else the payload's `event_type` or `object_kind`, else `unknown`. */
export function eventNameOf(headers: HeaderBag, payload: Readonly<Record<string, unknown>>): string {
  return (
    firstHeader(headers, EVENT_HEADERS) ??
    nonEmptyString(Object.hasOwn(payload, 'event_type') ? payload.event_type : undefined) ??
    nonEmptyString(Object.hasOwn(payload, 'object_kind') ? payload.object_kind : undefined) ??
    'unknown'
  );
}

/**
 * The delivery id, and whether it may be deduplicated: a timestamp stands in when no header names
 * the delivery, and is never deduplicated (two retries would get two ids anyway). An id longer than
 * MAX_DELIVERY_ID_LENGTH becomes `sha256:<hex>` of itself rather than being cut: a cut would make
 * two distinct long ids one, and the later delivery would be dropped as a duplicate.
 */
export function deliveryIdOf(headers: HeaderBag, nowMs: number): DeliveryId {
  const id = firstHeader(headers, DELIVERY_HEADERS);
  if (id === undefined) return { id: String(nowMs), deduplicate: false };
  if (id.length <= MAX_DELIVERY_ID_LENGTH) return { id, deduplicate: true };
  return { id: `sha256:${createHash('sha256').update(id).digest('hex')}`, deduplicate: true };
}
