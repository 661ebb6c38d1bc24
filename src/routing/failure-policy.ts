// What to do when a candidate fails: retry it shortly, move to the next candidate, or stop. A pure
// decision over the closed set of error codes, per DECISIONS.md: capacity-style failures fall
// back; validation errors, context overflow (that is compression's job), content filters and
// auth failures do not; nothing falls back once output has streamed.
import type { ModelError, ModelErrorCode } from '../providers/wire/types.js';

export type FailureDecision =
  | { readonly action: 'retry'; readonly delayMs: number; readonly reason: string }
  | { readonly action: 'fallback'; readonly reason: string }
  | { readonly action: 'fail'; readonly reason: string };

export const RETRY_POLICY = Object.freeze({
  /** Short retries of a 429 on the same candidate before moving on. */
  maxRateLimitRetries: 2,
  /** A `retry-after` longer than this is not "short": move on instead of waiting. */
  maxRetryWaitMs: 10_000,
  /** When a 429 names no `retry-after`. */
  defaultRetryMs: 1_000,
});

/** Every code, with whether it is a capacity-style failure. A new code must be placed here. */
const CAPACITY: Readonly<Record<ModelErrorCode, boolean>> = {
  rate_limited: true,
  quota: true,
  overloaded: true,
  server: true,
  timeout: true,
  network: true,
  not_found: true, // only deployment / model not found; see below
  truncated_stream: true, // before any output: the connection dropped
  not_configured: true, // this candidate cannot be used at all: try the next one
  bad_request: false,
  unsupported_operation: false, // the provider client already retried on the Responses API
  context_overflow: false,
  content_filter: false,
  auth: false,
  forbidden: false,
  cancelled: false,
  malformed_stream: false,
};

const MODEL_NOT_FOUND = /DeploymentNotFound|model_not_found|not_found_error|NotFound/i;

export function decideOnFailure(error: ModelError, retriesSoFar: number): FailureDecision {
  if (error.afterOutput) return { action: 'fail', reason: 'output had already streamed' };
  if (error.code === 'rate_limited' && retriesSoFar < RETRY_POLICY.maxRateLimitRetries) {
    const wait = error.retryAfterMs ?? RETRY_POLICY.defaultRetryMs;
    if (wait <= RETRY_POLICY.maxRetryWaitMs) {
      return { action: 'retry', delayMs: wait, reason: `rate limited, retrying in ${wait} ms` };
    }
  }
  if (error.code === 'not_found' && !MODEL_NOT_FOUND.test(error.providerCode ?? '')) {
    return { action: 'fail', reason: 'not found (not a missing deployment or model)' };
  }
  return CAPACITY[error.code]
    ? { action: 'fallback', reason: error.code }
    : { action: 'fail', reason: `${error.code} is not a capacity failure` };
}
