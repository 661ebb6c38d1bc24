// The turn's rules as tables: every input that changes an answer, with the answer.
import { describe, expect, it } from 'vitest';
import { afterModelCall, afterTools, compressBeforeTurn, contextLengthOf, maxIterationsText, namesSession, statusAfter, type StopReason } from './turn-policy.js';

describe('compressBeforeTurn', () => {
  it.each([
    [{ requested: false, estimatedTokens: 499, contextLength: 1000, threshold: 0.5 }, false],
    [{ requested: false, estimatedTokens: 500, contextLength: 1000, threshold: 0.5 }, true],
    [{ requested: true, estimatedTokens: 0, contextLength: 1000, threshold: 0.5 }, true],
    [{ requested: false, estimatedTokens: 900, contextLength: 1000, threshold: 1 }, false],
  ])('%j → %s', (input, compress) => {
    expect(compressBeforeTurn(input)).toBe(compress);
  });
});

describe('contextLengthOf', () => {
  const session = { provider: 'openai', model: 'gpt-5' };
  it.each([
    ['the configured main model with a length', { session, configuredMain: session, configuredLength: 1000, catalogLength: 400_000 }, 1000],
    ['the configured main model without one', { session, configuredMain: session, catalogLength: 400_000 }, 400_000],
    ['another model of the same provider', { session, configuredMain: { provider: 'openai', model: 'gpt-4.1' }, configuredLength: 1000, catalogLength: 400_000 }, 400_000],
    ['the same model id on another provider', { session, configuredMain: { provider: 'openrouter', model: 'gpt-5' }, configuredLength: 1000, catalogLength: 400_000 }, 400_000],
    ['no main model configured', { session, configuredLength: 1000, catalogLength: 400_000 }, 400_000],
  ])('%s', (_case, input, length) => {
    expect(contextLengthOf(input)).toBe(length);
  });
});

describe('afterModelCall', () => {
  it.each([
    [{ toolCalls: 0 }, { kind: 'stop', reason: 'done' }],
    [{ toolCalls: 2 }, { kind: 'run_tools' }],
    [{ errorCode: 'cancelled', toolCalls: 0 }, { kind: 'stop', reason: 'cancelled' }],
    [{ errorCode: 'http', toolCalls: 1 }, { kind: 'stop', reason: 'error' }],
    [{ errorCode: 'truncated_stream', toolCalls: 0 }, { kind: 'stop', reason: 'error' }],
  ])('%j → %j', (input, decision) => {
    expect(afterModelCall(input)).toEqual(decision);
  });
});

describe('afterTools', () => {
  it.each([
    [{ aborted: false, iterations: 1, maxIterations: 40 }, { kind: 'call_model' }],
    [{ aborted: false, iterations: 39, maxIterations: 40 }, { kind: 'call_model' }],
    [{ aborted: false, iterations: 40, maxIterations: 40 }, { kind: 'stop', reason: 'max_iterations' }],
    [{ aborted: true, iterations: 40, maxIterations: 40 }, { kind: 'stop', reason: 'cancelled' }],
    [{ aborted: true, iterations: 1, maxIterations: 40 }, { kind: 'stop', reason: 'cancelled' }],
  ])('%j → %j', (input, decision) => {
    expect(afterTools(input)).toEqual(decision);
  });
});

describe('statusAfter and namesSession', () => {
  it.each<[StopReason, string, boolean]>([
    ['done', 'idle', true],
    ['max_iterations', 'idle', false],
    ['cancelled', 'interrupted', false],
    ['error', 'failed', false],
  ])('%s: the session becomes %s; an untitled one is named: %s', (reason, status, named) => {
    expect(statusAfter(reason)).toBe(status);
    expect(namesSession({ untitledAtStart: true, reason })).toBe(named);
    expect(namesSession({ untitledAtStart: false, reason })).toBe(false);
  });
});

describe('maxIterationsText', () => {
  it('keeps what was said and says how to go on', () => {
    expect(maxIterationsText('partial', 3)).toBe('partial\n\n[stopped: 3 model calls in one turn (agent.max_iterations); send another message to continue]');
    expect(maxIterationsText('', 40)).toBe('[stopped: 40 model calls in one turn (agent.max_iterations); send another message to continue]');
  });
});
