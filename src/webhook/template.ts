// Renders a route's prompt and `deliver_extra` from the payload (DECISIONS.md "Prompt rendering").
// `{path.to.field}` is the only syntax; everything else, unknown paths included, stays as written,
// so a prompt that mentions `{ braces }` or JSON needs no escaping.
import { lookupPath } from './payload-path.js';

type Payload = Readonly<Record<string, unknown>>;

export const TEMPLATE_LIMITS = Object.freeze({
  /** An object or array printed in place of `{field}`. */
  valueChars: 2_000,
  /** The whole payload: `{__raw__}`, or the prompt of a route without one. */
  payloadChars: 4_000,
});

/** Follows a cut, outside the character limit, so the model knows the text goes on. */
export const TRUNCATION_MARKER = '\n… [truncated]';

export const RAW_PLACEHOLDER = '__raw__';

const PLACEHOLDER = /\{([A-Za-z0-9_.]+)\}/g;

/** At most `max` characters, then the marker; never splits a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
  return text.slice(0, end) + TRUNCATION_MARKER;
}

/** 2-space JSON. A payload from parsePayload always prints; anything else must not throw mid-run. */
function json(value: unknown, max: number): string {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2);
  } catch {
    text = '[not printable as JSON]';
  }
  return cut(text, max);
}

function formatValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) return json(value, TEMPLATE_LIMITS.valueChars);
  return String(value); // numbers, booleans and null
}

/**
 * One pass: text taken from the payload is never scanned for placeholders again, so a PR title
 * of `{__raw__}` cannot pull the rest of the payload in. `{__raw__}` wins over a payload field of
 * that name. In `{{x}}` the inner `{x}` is the placeholder and the outer braces stay.
 */
export function renderTemplate(template: string, payload: Payload): string {
  return template.replace(PLACEHOLDER, (whole, path: string) => {
    if (path === RAW_PLACEHOLDER) return json(payload, TEMPLATE_LIMITS.payloadChars);
    const found = lookupPath(payload, path);
    return found.found ? formatValue(found.value) : whole;
  });
}

export type RunPromptInput = {
  readonly template?: string | undefined;
  readonly event: string;
  readonly route: string;
  readonly payload: Payload;
};

/** The route's prompt; without one (or a blank one, which could only start an empty run), the payload. */
export function renderRunPrompt({ template, event, route, payload }: RunPromptInput): string {
  if (template !== undefined && template.trim() !== '') return renderTemplate(template, payload);
  return (
    `Webhook event "${event}" arrived on route "${route}". Its payload:\n\n` +
    json(payload, TEMPLATE_LIMITS.payloadChars)
  );
}

/** `deliver_extra` with its string values rendered like the prompt and its numbers as text. */
export function renderDeliverExtra(
  extra: Readonly<Record<string, string | number>>,
  payload: Payload,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(extra).map(([key, value]) => [
      key,
      typeof value === 'string' ? renderTemplate(value, payload) : String(value),
    ]),
  );
}
