// A slot whose answer must parse: ask, parse strictly, and on a malformed answer ask once more
// with the parser's complaint; a second malformed answer is a refusal, never a guess. The slot
// call and the parser are the caller's, so this holds no I/O of its own.
import type { Message } from '../domain/messages.js';

export type SlotText = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: string };

/** One call to a slot with a system prompt and the conversation so far (callers bind their slot). */
export type AskSlot = (system: string, messages: readonly Message[], maxOutputTokens: number) => Promise<SlotText>;

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

export type StrictAnswer<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly kind: 'slot_failed' | 'malformed'; readonly error: string };

export type StrictAsk<T> = {
  /** One call to the slot with this conversation. */
  readonly ask: (messages: readonly Message[]) => Promise<SlotText>;
  readonly prompt: string;
  readonly parse: (text: string) => Parsed<T>;
  /** The follow-up message that names what was wrong. */
  readonly fix: (error: string) => string;
};

export async function askStrict<T>(request: StrictAsk<T>): Promise<StrictAnswer<T>> {
  const messages: Message[] = [{ role: 'user', content: request.prompt }];
  let lastError = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    const answer = await request.ask(messages);
    if (!answer.ok) return { ok: false, kind: 'slot_failed', error: answer.error };
    const parsed = request.parse(answer.text);
    if (parsed.ok) return parsed;
    lastError = parsed.error;
    messages.push({ role: 'assistant', content: answer.text }, { role: 'user', content: request.fix(parsed.error) });
  }
  return { ok: false, kind: 'malformed', error: lastError };
}
