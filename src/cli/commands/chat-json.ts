// The one object `iris chat -q --json` prints, in DECISIONS.md's shape.
import type { AgentSession, StopReason, TurnResult } from '../../agent/agent.js';
import { redactText } from '../../log/redact.js';

export type ChatExit = 'ok' | 'error' | 'max_iterations' | 'interrupted';

const EXIT_WORD: Readonly<Record<StopReason, ChatExit>> = { done: 'ok', error: 'error', max_iterations: 'max_iterations', cancelled: 'interrupted' };

export type OneShotJson = {
  readonly session_id: string;
  readonly answer: string;
  readonly provider: string;
  readonly model: string;
  readonly usage: { readonly input_tokens: number; readonly output_tokens: number; readonly cost_usd: number | null };
  readonly exit: ChatExit;
  /** Only when exit is `error`. */
  readonly error?: string;
};

/** Sums of float prices pick up noise in the last digits (0.30000000000000004); cents need far fewer. */
const roundCost = (usd: number) => Math.round(usd * 1e10) / 1e10;

export function oneShotJson(session: AgentSession, result: TurnResult): OneShotJson {
  const served = result.served ?? { provider: session.record.provider, model: session.record.model };
  return {
    session_id: session.record.id,
    answer: result.text,
    provider: served.provider,
    model: served.model,
    usage: {
      input_tokens: result.usage.inputTokens,
      output_tokens: result.usage.outputTokens,
      cost_usd: result.usage.costUsd === null ? null : roundCost(result.usage.costUsd),
    },
    exit: EXIT_WORD[result.stopReason],
    ...(result.stopReason === 'error' ? { error: redactText(result.error?.message ?? 'the model call failed') } : {}),
  };
}
