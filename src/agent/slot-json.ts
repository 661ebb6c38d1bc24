// Asking a slot for a structured answer: the answer is parsed strictly, and one malformed answer
// earns one request to fix it (the spec's rule for every side-job that answers JSON). The slot call
// itself is the caller's, so the rule is tested without a model.
import type { Message } from '../domain/messages.js';

export type SlotAnswer = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: string };

/** One call to a slot with a system prompt and the conversation so far. */
export type AskSlot = (system: string, messages: readonly Message[], maxOutputTokens: number) => Promise<SlotAnswer>;

export type StrictParse<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

export type SlotJsonRequest<T> = {
  readonly system: string;
  readonly prompt: string;
  readonly maxOutputTokens: number;
  readonly parse: (text: string) => StrictParse<T>;
  /** The follow-up message that says what was wrong and asks again. */
  readonly fix: (error: string) => string;
};

/** `failed`: the call itself failed (after routing's fallbacks); `malformed`: two unusable answers. */
export type SlotJsonResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly kind: 'failed' | 'malformed'; readonly error: string };

export async function askSlotJson<T>(ask: AskSlot, request: SlotJsonRequest<T>): Promise<SlotJsonResult<T>> {
  const messages: Message[] = [{ role: 'user', content: request.prompt }];
  let lastError = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    const answer = await ask(request.system, messages, request.maxOutputTokens);
    if (!answer.ok) return { ok: false, kind: 'failed', error: answer.error };
    const parsed = request.parse(answer.text);
    if (parsed.ok) return parsed;
    lastError = parsed.error;
    messages.push({ role: 'assistant', content: answer.text }, { role: 'user', content: request.fix(parsed.error) });
  }
  return { ok: false, kind: 'malformed', error: lastError };
}
