// A fake model provider for tests: a real HTTP server on 127.0.0.1 (port 0) that speaks OpenAI
// chat completions, the OpenAI Responses API and Anthropic Messages, records every request, and
// answers from a per-model script. Tests assert what went on the wire instead of mocking fetch.
//
// This file decides *what* happens (routing, recording, the script, timing, cut-off streams); the
// modules under `upstream-formats/` decide how each format renders it.
import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { chatFormat } from './upstream-formats/chat.js';
import { messagesFormat } from './upstream-formats/messages.js';
import { responsesFormat } from './upstream-formats/responses.js';
import type { Answer, AnswerContext, AnswerUsage, SseFrame, WireFormat } from './upstream-formats/shared.js';
import { ERROR_STATUS, FAKE_CREATED, encodeFrame } from './upstream-formats/shared.js';

/** `cacheWrite`: prompt tokens written to the cache (only the messages format reports them). */
export type FakeUsage = { input: number; output: number; cached?: number; cacheWrite?: number };
export type FakeToolCall = { id?: string; name: string; arguments: Record<string, unknown> | string };
export type FakeBehaviour =
  | { kind: 'text'; deltas: string[]; usage?: FakeUsage; finish?: 'stop' | 'length' | 'content_filter' }
  | { kind: 'tool_calls'; calls: FakeToolCall[]; text?: string; usage?: FakeUsage }
  /** `body` is sent JSON-encoded (default: the format's error shape); use `raw` for other bytes. */
  | { kind: 'error'; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: 'unsupported' }
  | { kind: 'rate_limited'; retryAfterSeconds: number }
  | { kind: 'overloaded' }
  | { kind: 'unauthorized' }
  | { kind: 'deployment_not_found' }
  | { kind: 'server_error' }
  | { kind: 'mid_stream_error'; deltas: string[]; message?: string }
  | { kind: 'truncated'; deltas: string[] }
  | { kind: 'malformed' }
  | { kind: 'hang'; deltas: string[] }
  | { kind: 'slow_first_byte'; delayMs: number; then: FakeBehaviour }
  | { kind: 'raw'; status: number; contentType: string; body: string }
  /**
   * Answers `<prefix><the last user message's text>` (after `delayMs`), so a test can tell which
   * answer belongs to which message, whatever order the requests come in. With `answer`, the
   * answer is `answer(<the last user message's text>)` instead (a JSON review made from its prompt).
   */
  | { kind: 'echo'; prefix: string; delayMs?: number; answer?: (text: string) => string };

export type RecordedRequest = {
  method: string;
  /** Path and query exactly as received. */
  url: string;
  path: string;
  query: Record<string, string>;
  /** Lower-cased names; repeated headers joined with ', '. */
  headers: Record<string, string>;
  /** Parsed JSON, or undefined when the body is empty or not JSON. */
  body: unknown;
  rawBody: string;
};

export type FakeUpstream = {
  url: string;
  /** Every request in arrival order, recorded before it is answered. */
  requests: RecordedRequest[];
  /**
   * Sets (replaces) the model's queue: each request takes the next behaviour and the last one
   * repeats. No behaviours clears the script. An unscripted model answers the text "ok".
   */
  script(model: string, ...behaviours: FakeBehaviour[]): void;
  setModels(ids: string[]): void;
  /** Clears requests (in place), scripts and the id counter. */
  reset(): void;
  /** Stops the server; hanging and delayed responses are cut off (their sockets destroyed). */
  close(): Promise<void>;
  /**
   * Resolves once a `hang` answer has written everything it will write (its deltas are on the
   * wire), so a test can act on a run that is mid-stream without sleeping and hoping. Each call
   * waits for the next hang no earlier call took, counting hangs that happened before the call (a
   * fast run can hang before the test gets to ask).
   */
  hanging(timeoutMs?: number): Promise<void>;
};

/** Usage for answers scripted without one (and for the streamed part of failure behaviours). */
export const DEFAULT_FAKE_USAGE: Readonly<AnswerUsage> = Object.freeze({ input: 10, output: 5, cached: 0, cacheWrite: 0 });

const DEFAULT_BEHAVIOUR: FakeBehaviour = Object.freeze({ kind: 'text', deltas: ['ok'] });

const JSON_TYPE = 'application/json';
const SSE_TYPE = 'text/event-stream; charset=utf-8';

// Routed by suffix so every provider prefix works: /v1/…, /openai/v1/…, /anthropic/v1/…,
// /openai/deployments/<name>/…?api-version=…
const MODEL_ROUTES: ReadonlyArray<readonly [suffix: string, format: WireFormat]> = [
  ['/chat/completions', chatFormat],
  ['/responses', responsesFormat],
  ['/messages', messagesFormat],
];

// Azure gateway errors: the same `{error:{code,message}}` body whatever API the path speaks,
// because the gateway answers before any model (or format) is involved.
const AZURE_ERRORS = Object.freeze({
  unsupported: {
    status: 400,
    body: { error: { code: 'OperationNotSupported', message: 'The requested operation is unsupported.' } },
  },
  deployment_not_found: {
    status: 404,
    body: {
      error: {
        code: 'DeploymentNotFound',
        message:
          'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.',
      },
    },
  },
} as const);

type Exchange = {
  readonly res: ServerResponse;
  readonly format: WireFormat;
  readonly stream: boolean;
  readonly ctx: AnswerContext;
  /** Aborted by close(), so delayed answers stop waiting. */
  readonly closing: AbortSignal;
  /** Called once a `hang` answer has written its part. */
  readonly hung: () => void;
};

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': JSON_TYPE, ...headers });
  res.end(JSON.stringify(body));
}

/** Sends status, headers and frames; the response stays open unless `end` is set. */
function sendFrames(res: ServerResponse, frames: readonly SseFrame[], end: boolean): void {
  if (!res.headersSent) {
    res.writeHead(200, { 'content-type': SSE_TYPE, 'cache-control': 'no-cache' });
    res.flushHeaders();
  }
  for (const frame of frames) res.write(encodeFrame(frame));
  if (end) res.end();
}

function toAnswer(behaviour: Extract<FakeBehaviour, { kind: 'text' | 'tool_calls' }>): Answer {
  const usage = {
    input: behaviour.usage?.input ?? DEFAULT_FAKE_USAGE.input,
    output: behaviour.usage?.output ?? DEFAULT_FAKE_USAGE.output,
    cached: behaviour.usage?.cached ?? DEFAULT_FAKE_USAGE.cached,
    cacheWrite: behaviour.usage?.cacheWrite ?? DEFAULT_FAKE_USAGE.cacheWrite,
  };
  if (behaviour.kind === 'text') {
    return { deltas: behaviour.deltas, calls: [], usage, finish: behaviour.finish ?? 'stop' };
  }
  const calls = behaviour.calls.map((call) => ({
    id: call.id,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));
  return { deltas: behaviour.text ? [behaviour.text] : [], calls, usage, finish: 'tool_calls' };
}

/** The opening of a text answer, for behaviours that stream some text and then go wrong. */
function streamedHead(exchange: Exchange, deltas: string[]) {
  return exchange.format.stream(toAnswer({ kind: 'text', deltas }), exchange.ctx);
}

async function perform(behaviour: FakeBehaviour, exchange: Exchange): Promise<void> {
  const { res, format, stream, ctx } = exchange;
  switch (behaviour.kind) {
    case 'text':
    case 'tool_calls': {
      const answer = toAnswer(behaviour);
      if (!stream) return sendJson(res, 200, format.complete(answer, ctx));
      const plan = format.stream(answer, ctx);
      return sendFrames(res, [...plan.head, ...plan.tail], true);
    }
    case 'error':
      return sendJson(
        res,
        behaviour.status,
        behaviour.body === undefined ? format.errorBody({ kind: 'status', status: behaviour.status }) : behaviour.body,
        behaviour.headers,
      );
    case 'unsupported':
    case 'deployment_not_found':
      return sendJson(res, AZURE_ERRORS[behaviour.kind].status, AZURE_ERRORS[behaviour.kind].body);
    case 'rate_limited':
      return sendJson(res, ERROR_STATUS.rate_limited, format.errorBody(behaviour), {
        'retry-after': String(behaviour.retryAfterSeconds),
      });
    case 'overloaded':
    case 'unauthorized':
    case 'server_error':
      return sendJson(res, ERROR_STATUS[behaviour.kind], format.errorBody(behaviour));
    case 'mid_stream_error': {
      // A non-streaming request cannot fail half-way; the nearest thing is a plain 500.
      if (!stream) return sendJson(res, 500, format.errorBody({ kind: 'server_error', message: behaviour.message }));
      const plan = streamedHead(exchange, behaviour.deltas);
      return sendFrames(res, [...plan.head, plan.failure(behaviour.message)], true);
    }
    case 'truncated': {
      if (stream) return sendFrames(res, streamedHead(exchange, behaviour.deltas).head, true);
      // Non-streaming: a 200 whose JSON body stops half-way, then a clean end.
      const whole = JSON.stringify(format.complete(toAnswer({ kind: 'text', deltas: behaviour.deltas }), ctx));
      res.writeHead(200, { 'content-type': JSON_TYPE });
      return void res.end(whole.slice(0, Math.floor(whole.length / 2)));
    }
    case 'malformed':
      if (stream) return sendFrames(res, [format.malformed], true);
      res.writeHead(200, { 'content-type': JSON_TYPE });
      return void res.end('{not json');
    case 'hang':
      // Left open on purpose: only the client giving up or close() ends it.
      if (stream) sendFrames(res, streamedHead(exchange, behaviour.deltas).head, false);
      else {
        res.writeHead(200, { 'content-type': JSON_TYPE });
        res.flushHeaders();
      }
      return exchange.hung();
    case 'slow_first_byte':
      try {
        await sleep(behaviour.delayMs, undefined, { signal: exchange.closing });
      } catch {
        return; // close() was called while waiting; the socket is being destroyed anyway.
      }
      if (res.destroyed) return; // the client gave up (a first-byte timeout did its job)
      return perform(behaviour.then, exchange);
    case 'raw':
      res.writeHead(behaviour.status, { 'content-type': behaviour.contentType });
      return void res.end(behaviour.body);
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function record(req: IncomingMessage, rawBody: string): RecordedRequest {
  const url = req.url ?? '/';
  const parsed = new URL(url, 'http://fake.invalid');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return {
    method: req.method ?? 'GET',
    url,
    path: parsed.pathname,
    query: Object.fromEntries(parsed.searchParams),
    headers,
    body: parseJson(rawBody),
    rawBody,
  };
}

/** The text of the last user message, in any of the three formats (text parts joined). */
export function lastUserText(body: Record<string, unknown>): string {
  const list = Array.isArray(body.messages) ? body.messages : Array.isArray(body.input) ? body.input : [];
  const users = (list as Array<{ role?: unknown; content?: unknown }>).filter((m) => m && m.role === 'user');
  const content = users[users.length - 1]?.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as Array<{ text?: unknown }>).map((part) => (typeof part?.text === 'string' ? part.text : '')).join('');
}

/** The body's `model`; classic Azure URLs name the deployment in the path instead. */
function modelOf(body: Record<string, unknown>, path: string): string {
  if (typeof body.model === 'string') return body.model;
  return /\/deployments\/([^/]+)\//.exec(path)?.[1] ?? '';
}

export async function startFakeUpstream(options: { models?: string[]; port?: number } = {}): Promise<FakeUpstream> {
  const requests: RecordedRequest[] = [];
  const scripts = new Map<string, FakeBehaviour[]>();
  let models = [...(options.models ?? [])];
  let answered = 0;
  const closing = new AbortController();
  const events = new EventEmitter();
  // Hangs written so far, and how many of them a hanging() call has taken.
  let hangsWritten = 0;
  let hangsTaken = 0;

  function next(model: string): FakeBehaviour {
    const queue = scripts.get(model);
    if (queue === undefined) return DEFAULT_BEHAVIOUR;
    return (queue.length > 1 ? queue.shift() : queue[0]) ?? DEFAULT_BEHAVIOUR;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const request = record(req, await readBody(req));
    requests.push(request);
    const { method, path, body } = request;

    if (method === 'GET' && path.endsWith('/models')) {
      const data = models.map((id) => ({ id, object: 'model', created: FAKE_CREATED, owned_by: 'fake' }));
      return sendJson(res, 200, { object: 'list', data });
    }
    const format = method === 'POST' ? MODEL_ROUTES.find(([suffix]) => path.endsWith(suffix))?.[1] : undefined;
    if (format === undefined) {
      return sendJson(res, 404, {
        error: { message: `The fake upstream has no route for ${method} ${path}.`, type: 'invalid_request_error', param: null, code: 'not_found' },
      });
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return sendJson(res, 400, format.errorBody({ kind: 'invalid_json' }));
    }
    const fields = body as Record<string, unknown>;
    const model = modelOf(fields, path);
    const options = fields.stream_options as { include_usage?: unknown } | undefined;
    answered += 1;
    const ctx = { model, n: answered, includeUsage: options?.include_usage === true };
    let behaviour = next(model);
    if (behaviour.kind === 'echo') {
      const { prefix, delayMs, answer } = behaviour;
      if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
      const text = lastUserText(fields);
      behaviour = { kind: 'text', deltas: [answer ? answer(text) : `${prefix}${text}`] };
    }
    await perform(behaviour, { res, format, stream: fields.stream === true, ctx, closing: closing.signal, hung: () => {
      hangsWritten += 1;
      events.emit('hung');
    } });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A bug in the fake must show up in the test, not as a silent hang.
      if (res.headersSent) return void res.destroy(error instanceof Error ? error : undefined);
      sendJson(res, 500, { error: { message: `fake upstream failed: ${String(error)}`, type: 'fake_error', param: null, code: null } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(model, ...behaviours) {
      if (behaviours.length === 0) scripts.delete(model);
      else scripts.set(model, [...behaviours]);
    },
    setModels(ids) {
      models = [...ids];
    },
    reset() {
      requests.splice(0);
      scripts.clear();
      answered = 0;
      hangsWritten = 0;
      hangsTaken = 0;
    },
    hanging(timeoutMs = 10_000) {
      const mine = ++hangsTaken;
      return new Promise<void>((resolve, reject) => {
        if (hangsWritten >= mine) {
          resolve();
          return;
        }
        const timer = setTimeout(() => {
          events.off('hung', onHung);
          reject(new Error(`the fake upstream answered no request with a hang within ${timeoutMs} ms (${requests.length} requests)`));
        }, timeoutMs);
        const onHung = () => {
          if (hangsWritten < mine) return;
          clearTimeout(timer);
          events.off('hung', onHung);
          resolve();
        };
        events.on('hung', onHung);
      });
    },
    close() {
      closing.abort();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
