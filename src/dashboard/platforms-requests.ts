// The Platforms page's request bodies, read: a pairing code to approve, a user to revoke, the chat
// a test message goes to. Every field is someone's typing (or an attacker's): bounded, one line,
// no unknown keys. Pure: a parsed JSON value in, the value or the 400's message out.
import * as z from 'zod/mini';

type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

/** Platform ids (Telegram chat ids, Slack channel ids, E.164 numbers, Signal group ids) are short, printable, one line. */
const MAX_ID_CHARS = 200;
const printable = (text: string) => [...text].every((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f);

const ApproveBody = z.strictObject({ code: z.string() });
const RevokeBody = z.strictObject({ user: z.string() });
const TestBody = z.strictObject({ chat: z.optional(z.string()) });

function oneId(text: string, field: string): Parsed<string> {
  const value = text.trim();
  if (value === '') return { ok: false, error: `"${field}" is empty` };
  if (value.length > MAX_ID_CHARS || !printable(value)) return { ok: false, error: `"${field}" must be one line of at most ${MAX_ID_CHARS} characters` };
  return { ok: true, value };
}

export function parseApproveBody(data: unknown): Parsed<string> {
  const parsed = ApproveBody.safeParse(data);
  if (!parsed.success) return { ok: false, error: 'the body must be {"code": "<pairing code>"}' };
  const code = parsed.data.code.trim();
  // Codes are 8 letters and digits (platforms/access.ts); anything else can never match one.
  if (!/^[A-Za-z0-9]{1,32}$/.test(code)) return { ok: false, error: '"code" must be the pairing code the user was sent (letters and digits)' };
  return { ok: true, value: code };
}

export function parseRevokeBody(data: unknown): Parsed<string> {
  const parsed = RevokeBody.safeParse(data);
  if (!parsed.success) return { ok: false, error: 'the body must be {"user": "<platform user id>"}' };
  return oneId(parsed.data.user, 'user');
}

/** The chat to send to; null for the home channel. */
export function parseTestBody(data: unknown): Parsed<string | null> {
  const parsed = TestBody.safeParse(data ?? {});
  if (!parsed.success) return { ok: false, error: 'the body must be {} (the home channel) or {"chat": "<chat id>"}' };
  if (parsed.data.chat === undefined || parsed.data.chat.trim() === '') return { ok: true, value: null };
  return oneId(parsed.data.chat, 'chat');
}
