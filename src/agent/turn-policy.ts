// The rules of one turn, apart from its I/O: whether to compress first, what follows a model call
// or a round of tools, what the session's status becomes, and whether the turn names the session.
// agent.ts asks these questions and does what they answer.
import type { SessionStatus } from '../store/types.js';
import { overThreshold } from './context-budget.js';

export type StopReason = 'done' | 'max_iterations' | 'cancelled' | 'error';

/** Compress before the new message when a /model switch asked for it, or the context is full enough. */
export function compressBeforeTurn(input: {
  readonly requested: boolean;
  readonly estimatedTokens: number;
  readonly contextLength: number;
  readonly threshold: number;
}): boolean {
  return input.requested || overThreshold(input.estimatedTokens, input.contextLength, input.threshold);
}

/**
 * `model.context_length` describes the configured main model however it is named (default,
 * model, an alias): it applies when the session runs on that resolved model, and only then.
 */
export function contextLengthOf(input: {
  readonly session: { readonly provider: string; readonly model: string };
  readonly configuredMain?: { readonly provider: string; readonly model: string };
  readonly configuredLength?: number;
  readonly catalogLength: number;
}): number {
  const { session, configuredMain } = input;
  const onConfiguredMain = configuredMain !== undefined && configuredMain.provider === session.provider && configuredMain.model === session.model;
  return (onConfiguredMain ? input.configuredLength : undefined) ?? input.catalogLength;
}

export type AfterModelCall = { readonly kind: 'stop'; readonly reason: StopReason } | { readonly kind: 'run_tools' };

/** A failed call ends the turn (a cancel as `cancelled`); an answer without tool calls finishes it. */
export function afterModelCall(input: { readonly errorCode?: string; readonly toolCalls: number }): AfterModelCall {
  if (input.errorCode !== undefined) return { kind: 'stop', reason: input.errorCode === 'cancelled' ? 'cancelled' : 'error' };
  return input.toolCalls === 0 ? { kind: 'stop', reason: 'done' } : { kind: 'run_tools' };
}

export type AfterTools = { readonly kind: 'stop'; readonly reason: StopReason } | { readonly kind: 'call_model' };

/** After a round of tools: stop when cancelled, or when `iterations` model calls used the bound. */
export function afterTools(input: { readonly aborted: boolean; readonly iterations: number; readonly maxIterations: number }): AfterTools {
  if (input.aborted) return { kind: 'stop', reason: 'cancelled' };
  return input.iterations >= input.maxIterations ? { kind: 'stop', reason: 'max_iterations' } : { kind: 'call_model' };
}

export function statusAfter(reason: StopReason): SessionStatus {
  return reason === 'cancelled' ? 'interrupted' : reason === 'error' ? 'failed' : 'idle';
}

/** The first exchange that finishes names an untitled session; a title given by hand stays. */
export function namesSession(input: { readonly untitledAtStart: boolean; readonly reason: StopReason }): boolean {
  return input.untitledAtStart && input.reason === 'done';
}

/** What a turn stopped by the bound answers: what it had, and how to go on. */
export function maxIterationsText(text: string, iterations: number): string {
  return `${text}${text ? '\n\n' : ''}[stopped: ${iterations} model calls in one turn (agent.max_iterations); send another message to continue]`;
}
