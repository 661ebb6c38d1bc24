// GET /api/sessions/:id: a stored conversation shaped for the Sessions page. Messages in order, a
// tool call folded together with its result (both cut short), and the model calls of the session
// grouped by turn: a turn starts at a user message and owns the calls made until the next one
// (its title, its compression, its tools' side-jobs). Pure: the rows in, the JSON out.
import { redactText } from '../log/redact.js';
import type { ContentPart, Message, ToolCall } from '../domain/messages.js';
import { sessionJson, type SessionJson } from '../agent/sessions/listing.js';
import type { SessionCall, TimedMessage } from '../store/session-browser.js';
import type { SessionSummary } from '../store/types.js';

/** A tool call's arguments and result are cut to these lengths; the export has them whole. */
export const ARGUMENTS_SHOWN = 300;
export const RESULT_SHOWN = 600;

export type ToolCallJson = {
  readonly id: string;
  readonly name: string;
  /** The arguments as JSON (or the raw text the model sent), cut to ARGUMENTS_SHOWN. */
  readonly arguments: string;
  /** The result, cut to RESULT_SHOWN; null while (or if) no result was stored. */
  readonly result: string | null;
  /** false for an error result; null without a result. */
  readonly ok: boolean | null;
  /** The result's whole length, so the page can say how much was cut. */
  readonly result_chars: number;
};

export type TranscriptMessage =
  | { readonly turn: number; readonly at: string; readonly role: 'user'; readonly text: string }
  | { readonly turn: number; readonly at: string; readonly role: 'assistant'; readonly text: string; readonly tool_calls: readonly ToolCallJson[] }
  /** A tool result whose call is not in the transcript (compression folded it into a summary). */
  | { readonly turn: number; readonly at: string; readonly role: 'tool'; readonly name: string; readonly text: string; readonly ok: boolean };

export type UsageTotalsJson = {
  readonly calls: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cached_tokens: number;
  readonly cache_write_tokens: number;
  /** Sum of the known costs; null when no call had a known price. */
  readonly cost_usd: number | null;
  readonly unpriced_calls: number;
};

export type TurnJson = UsageTotalsJson & {
  readonly turn: number;
  /** Who answered (the main model's calls; a fallback shows as a second entry). */
  readonly models: readonly { readonly provider: string; readonly model: string }[];
  /** The auxiliary slots used in the turn (title_generation, compression, vision…). */
  readonly tasks: readonly string[];
};

export type TranscriptJson = {
  readonly session: SessionJson;
  readonly messages: readonly TranscriptMessage[];
  readonly turns: readonly TurnJson[];
  readonly totals: UsageTotalsJson;
};

/** At most `max` characters, with an ellipsis when cut. */
export function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function partText(part: ContentPart): string {
  if (part.type === 'text') return part.text;
  if (part.type === 'image') return `[image: ${part.mediaType}, ${Math.floor((part.data.length * 3) / 4)} bytes]`;
  return `[image: ${part.url}]`;
}

function callArguments(call: ToolCall): string {
  return cut(redactText(call.invalidArguments !== undefined ? call.invalidArguments : JSON.stringify(call.arguments)), ARGUMENTS_SHOWN);
}

export function totalsOf(calls: readonly SessionCall[]): UsageTotalsJson {
  const priced = calls.filter((call) => call.costUsd !== null);
  return {
    calls: calls.length,
    input_tokens: calls.reduce((sum, call) => sum + call.inputTokens, 0),
    output_tokens: calls.reduce((sum, call) => sum + call.outputTokens, 0),
    cached_tokens: calls.reduce((sum, call) => sum + call.cachedTokens, 0),
    cache_write_tokens: calls.reduce((sum, call) => sum + call.cacheWriteTokens, 0),
    cost_usd: priced.length === 0 ? null : priced.reduce((sum, call) => sum + (call.costUsd ?? 0), 0),
    unpriced_calls: calls.length - priced.length,
  };
}

/**
 * The turn each call belongs to: the last turn that started at or before it; a call before the
 * first user message (or in a session without one) goes to the first turn. `starts` are the turns'
 * start times, in order.
 */
export function turnOfCall(at: number, starts: readonly number[]): number {
  let turn = 0;
  for (let i = 0; i < starts.length; i += 1) if (starts[i]! <= at) turn = i;
  return turn;
}

function turnJson(turn: number, calls: readonly SessionCall[]): TurnJson {
  const models = new Map<string, { provider: string; model: string }>();
  for (const call of calls) if (call.task === 'main') models.set(`${call.provider}\u0000${call.model}`, { provider: call.provider, model: call.model });
  const tasks = [...new Set(calls.filter((call) => call.task !== 'main').map((call) => call.task))];
  return { turn, models: [...models.values()], tasks, ...totalsOf(calls) };
}

export function shapeTranscript(session: SessionSummary, timed: readonly TimedMessage[], calls: readonly SessionCall[]): TranscriptJson {
  const results = new Map<string, Extract<Message, { role: 'tool' }>>();
  for (const { message } of timed) if (message.role === 'tool') results.set(message.toolCallId, message);
  const called = new Set(timed.flatMap(({ message }) => (message.role === 'assistant' ? (message.toolCalls ?? []).map((call) => call.id) : [])));

  const starts: number[] = [];
  const messages: TranscriptMessage[] = [];
  for (const { at, message } of timed) {
    if (message.role === 'user') starts.push(at);
    const turn = Math.max(0, starts.length - 1);
    const when = new Date(at).toISOString();
    if (message.role === 'user') {
      messages.push({ turn, at: when, role: 'user', text: typeof message.content === 'string' ? message.content : message.content.map(partText).join('\n') });
    } else if (message.role === 'assistant') {
      const toolCalls = (message.toolCalls ?? []).map((call): ToolCallJson => {
        const result = results.get(call.id);
        return {
          id: call.id,
          name: call.name,
          arguments: callArguments(call),
          // Redacted as the logs are: a command's output can hold a credential, and the team sees this page.
          result: result ? cut(redactText(result.content), RESULT_SHOWN) : null,
          ok: result ? result.isError !== true : null,
          result_chars: result ? result.content.length : 0,
        };
      });
      messages.push({ turn, at: when, role: 'assistant', text: message.content, tool_calls: toolCalls });
    } else if (!called.has(message.toolCallId)) {
      messages.push({ turn, at: when, role: 'tool', name: message.name, text: cut(message.content, RESULT_SHOWN), ok: message.isError !== true });
    }
  }

  const turnCount = Math.max(1, starts.length);
  const byTurn: SessionCall[][] = Array.from({ length: turnCount }, () => []);
  for (const call of calls) byTurn[turnOfCall(call.at, starts)]!.push(call);
  const turns = calls.length === 0 && starts.length === 0 ? [] : byTurn.map((turnCalls, turn) => turnJson(turn, turnCalls));
  return { session: sessionJson(session), messages, turns, totals: totalsOf(calls) };
}
