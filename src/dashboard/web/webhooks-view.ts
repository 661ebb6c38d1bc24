// What the Webhooks page says, pure: the Subscribe form's fields as the request body (or the one
// problem to fix first), and a route's row as text (its events, filters, delivery target and last
// delivery with the link to it on the Deliveries page).
import { NAME_PATTERN, NAME_WORDS } from '../../domain/name-rule.js';
import type { SubscribeBody, TestSent, WebhookRoute } from './webhooks-api.js';
import { hrefOf } from './nav.js';

export type SubscribeForm = {
  readonly name: string;
  /** Comma- or space-separated event names; empty: every event. */
  readonly events: string;
  readonly prompt: string;
  readonly deliver: string;
  /** `key=value`, one a line (`repo={repository.full_name}`). */
  readonly deliverExtra: string;
};

export const EMPTY_FORM: SubscribeForm = { name: '', events: '', prompt: '', deliver: 'log', deliverExtra: '' };

export type FormOutcome = { readonly ok: true; readonly body: SubscribeBody } | { readonly ok: false; readonly error: string };

/** The form as the body POST /api/webhooks takes; the server checks everything again. */
export function subscribeBody(form: SubscribeForm, taken: readonly WebhookRoute[]): FormOutcome {
  const name = form.name.trim();
  if (name === '') return { ok: false, error: 'Give the route a name: it becomes the address /webhooks/<name>.' };
  if (!NAME_PATTERN.test(name)) return { ok: false, error: `The name "${name}" does not fit the rule: ${NAME_WORDS}, without "..".` };
  const clash = taken.find((route) => route.name === name && route.source === 'config');
  if (clash) return { ok: false, error: `"${name}" is a config.yaml route; pick another name.` };
  const extra: Record<string, string> = {};
  for (const line of form.deliverExtra.split('\n')) {
    if (line.trim() === '') continue;
    const at = line.indexOf('=');
    const key = at < 0 ? '' : line.slice(0, at).trim();
    if (key === '') return { ok: false, error: `Delivery settings take key=value, one a line (got "${line.trim()}").` };
    extra[key] = line.slice(at + 1).trim();
  }
  const events = form.events.split(/[\s,]+/).filter(Boolean);
  const prompt = form.prompt.trim();
  return { ok: true, body: { name, events, ...(prompt !== '' ? { prompt: form.prompt } : {}), deliver: form.deliver, deliver_extra: extra } };
}

export function eventsText(events: readonly string[]): string {
  return events.length === 0 ? 'all events' : events.join(', ');
}

/** `action in opened, synchronize; sender.type in User`, or '' without filters. */
export function filtersText(filters: WebhookRoute['filters']): string {
  return filters.map((filter) => `${filter.field} in ${filter.in.map((value) => (value === null ? 'null' : String(value))).join(', ')}`).join('; ');
}

/** `forge_comment (repo={repository.full_name}, pr_number={number})`, or the target alone. */
export function targetText(deliver: string, extra: WebhookRoute['deliver_extra']): string {
  const pairs = Object.entries(extra).map(([key, value]) => `${key}=${value}`);
  return pairs.length === 0 ? deliver : `${deliver} (${pairs.join(', ')})`;
}

/** `2026-11-20 08:05 UTC`; '' for a time that does not parse. */
export function whenText(iso: string): string {
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return '';
  return `${time.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export type LastDeliveryView = { readonly href: string; readonly label: string; readonly when: string } | { readonly href: null; readonly label: string; readonly when: '' };

export function lastDeliveryView(route: WebhookRoute): LastDeliveryView {
  const last = route.last_delivery;
  if (last === null) return { href: null, label: 'no events yet', when: '' };
  return { href: hrefOf({ page: 'deliveries', id: String(last.id) }), label: `#${last.id} ${last.state}`, when: whenText(last.received_at) };
}

/** Why a route has no Send test button (config.yaml routes are tested from the code host), or undefined. */
export function whyNoTest(route: WebhookRoute): string | undefined {
  return route.source === 'config' ? 'A config.yaml route: send a signed event from the code host to test it.' : undefined;
}

/** What a test event did, in one sentence. */
export function testResultText(sent: TestSent): string {
  const answer = sent.status >= 200 && sent.status < 300 ? 'accepted it' : 'refused it';
  const sample = sent.sample === null ? '' : ` It carried ${sent.sample}.`;
  return `Sent a signed ${sent.event} event (delivery ${sent.delivery_id}): the gateway answered ${sent.status} and ${answer}.${sample}`;
}
