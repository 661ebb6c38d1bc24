import { describe, expect, it } from 'vitest';
import { codeForStatus, modelErrorFromFailure, parseErrorBody, retryAfterMs } from './errors.js';

describe('parseErrorBody', () => {
  it('reads OpenAI and Anthropic shapes and plain text', () => {
    expect(parseErrorBody('{"error":{"message":"bad","type":"invalid_request_error","code":"x"}}')).toEqual({
      message: 'bad',
      type: 'invalid_request_error',
      code: 'x',
    });
    expect(parseErrorBody('{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}')).toEqual({
      message: 'Overloaded',
      type: 'overloaded_error',
    });
    expect(parseErrorBody('upstream exploded')).toEqual({ message: 'upstream exploded' });
    expect(parseErrorBody('')).toEqual({});
  });
});

describe('retryAfterMs', () => {
  it('prefers retry-after-ms, then seconds, then an HTTP date', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': '3' }))).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Wed, 21 Oct 2015 07:28:05 GMT' }), Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(5000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(new Headers())).toBeUndefined();
  });
});

describe('codeForStatus', () => {
  it.each([
    [400, { message: 'The requested operation is unsupported.' }, 'unsupported_operation'],
    [400, { code: 'OperationNotSupported' }, 'unsupported_operation'],
    [400, { code: 'context_length_exceeded' }, 'context_overflow'],
    [400, { message: 'prompt is too long: 300000 tokens > 200000 maximum' }, 'context_overflow'],
    [400, { code: 'content_filter' }, 'content_filter'],
    [400, { message: 'temperature out of range' }, 'bad_request'],
    [401, {}, 'auth'],
    [403, {}, 'forbidden'],
    [402, {}, 'quota'],
    [404, { code: 'DeploymentNotFound' }, 'not_found'],
    [408, {}, 'timeout'],
    [429, {}, 'rate_limited'],
    [429, { code: 'insufficient_quota' }, 'quota'],
    [500, {}, 'server'],
    [503, {}, 'server'],
    [529, {}, 'overloaded'],
    [503, { type: 'overloaded_error' }, 'overloaded'],
  ] as const)('%i %j → %s', (status, body, code) => {
    expect(codeForStatus(status, body)).toBe(code);
  });
});

describe('modelErrorFromFailure', () => {
  it('keeps status, provider code and retry-after, and redacts the message', () => {
    const error = modelErrorFromFailure(
      {
        kind: 'status',
        status: 429,
        headers: new Headers({ 'retry-after': '2' }),
        body: '{"error":{"message":"slow down, key sk-abcdefghijklmnop","code":"rate_limit"}}',
      },
      'openai (chat_completions)',
      false,
    );
    expect(error).toEqual({
      code: 'rate_limited',
      message: 'openai (chat_completions) answered 429: slow down, key sk-[redacted]',
      status: 429,
      retryAfterMs: 2000,
      providerCode: 'rate_limit',
      afterOutput: false,
    });
  });

  it.each([
    [{ kind: 'timeout', phase: 'first_byte' }, 'timeout', 'p: no response in time'],
    [{ kind: 'timeout', phase: 'idle' }, 'timeout', 'p: the stream went silent'],
    [{ kind: 'timeout', phase: 'connect' }, 'timeout', 'p: could not connect in time'],
    [{ kind: 'cancelled' }, 'cancelled', 'p: request cancelled'],
    [{ kind: 'network', message: 'ECONNREFUSED' }, 'network', 'p: ECONNREFUSED'],
  ] as const)('%j → %s', (failure, code, message) => {
    expect(modelErrorFromFailure(failure, 'p', true)).toEqual({ code, message, afterOutput: true });
  });
});
