// Turning what went wrong on the wire into a ModelError with a closed code. Pure: the routing
// layer's fallback decision reads only `code`, `status` and `retryAfterMs`.
import { redactText } from '../../log/redact.js';
import type { HttpFailure } from './sse-request.js';
import type { ModelError, ModelErrorCode } from './types.js';

type ErrorBody = { message?: string; code?: string; type?: string };

/** Reads `{error:{message,code,type}}` (OpenAI) and `{type:'error',error:{type,message}}` (Anthropic). */
export function parseErrorBody(text: string): ErrorBody {
  try {
    const json = JSON.parse(text) as { error?: unknown; message?: unknown; code?: unknown };
    const inner = (typeof json.error === 'object' && json.error !== null ? json.error : json) as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);
    const message = str(inner.message) ?? (typeof json.error === 'string' ? json.error : undefined);
    const code = str(inner.code);
    const type = str(inner.type);
    return { ...(message ? { message } : {}), ...(code ? { code } : {}), ...(type ? { type } : {}) };
  } catch {
    return text.trim() ? { message: text.trim().slice(0, 300) } : {};
  }
}

/** `retry-after-ms`, else `retry-after` as seconds or an HTTP date. */
export function retryAfterMs(headers: Headers, nowMs = Date.now()): number | undefined {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') !== null && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

const UNSUPPORTED = /requested operation is unsupported|OperationNotSupported/i;
const CONTEXT = /context_length_exceeded|maximum context length|prompt is too long|context window|too many tokens/i;
const FILTER = /content_filter|content management policy|ResponsibleAIPolicyViolation|content filtering/i;
const QUOTA = /insufficient_quota|quota|billing|credit|payment required/i;
const NOT_FOUND_CODES = /DeploymentNotFound|model_not_found|NotFound/i;

export function codeForStatus(status: number, body: ErrorBody): ModelErrorCode {
  const words = `${body.code ?? ''} ${body.type ?? ''} ${body.message ?? ''}`;
  if (status === 400 || status === 422) {
    if (UNSUPPORTED.test(words)) return 'unsupported_operation';
    if (CONTEXT.test(words)) return 'context_overflow';
    if (FILTER.test(words)) return 'content_filter';
    return 'bad_request';
  }
  if (status === 401) return 'auth';
  if (status === 403) return FILTER.test(words) ? 'content_filter' : 'forbidden';
  if (status === 402) return 'quota';
  if (status === 404) return 'not_found';
  if (status === 408) return 'timeout';
  if (status === 413) return 'context_overflow';
  if (status === 429) return QUOTA.test(words) ? 'quota' : 'rate_limited';
  if (status === 529 || /overloaded/i.test(words)) return 'overloaded';
  if (status >= 500) return 'server';
  return 'bad_request';
}

export function modelErrorFromFailure(failure: HttpFailure, label: string, afterOutput: boolean): ModelError {
  switch (failure.kind) {
    case 'cancelled':
      return { code: 'cancelled', message: `${label}: request cancelled`, afterOutput };
    case 'timeout':
      return {
        code: 'timeout',
        message: `${label}: ${
          failure.phase === 'connect'
            ? 'could not connect in time'
            : failure.phase === 'first_byte'
              ? 'no response in time'
              : 'the stream went silent'
        }`,
        afterOutput,
      };
    case 'network':
      return { code: 'network', message: `${label}: ${failure.message}`, afterOutput };
    case 'status': {
      const body = parseErrorBody(failure.body);
      const after = retryAfterMs(failure.headers);
      const providerCode = body.code ?? body.type;
      const detail = body.message ? `: ${redactText(body.message).slice(0, 500)}` : '';
      return {
        code: codeForStatus(failure.status, body),
        message: `${label} answered ${failure.status}${detail}`,
        status: failure.status,
        ...(after !== undefined ? { retryAfterMs: after } : {}),
        ...(providerCode ? { providerCode } : {}),
        afterOutput,
      };
    }
  }
}

/** An error the provider reported inside an otherwise successful stream. */
export function streamError(body: ErrorBody, label: string, afterOutput: boolean, status = 500): ModelError {
  const code = body.type === 'overloaded_error' ? 'overloaded' : codeForStatus(status, body);
  return {
    code,
    message: `${label} stream failed${body.message ? `: ${redactText(body.message).slice(0, 500)}` : ''}`,
    ...(body.code ?? body.type ? { providerCode: body.code ?? body.type } : {}),
    afterOutput,
  };
}

export function isNotFoundDeployment(error: ModelError): boolean {
  return error.code === 'not_found' && NOT_FOUND_CODES.test(error.providerCode ?? '');
}
