// A fake of `signal-cli daemon --http`: a real HTTP server on 127.0.0.1 (port 0) with the three
// endpoints signal-cli serves, the same status codes, JSON-RPC errors and envelope JSON, and a
// record of every request. Tests push messages in and assert what went out on the wire.
//
// Modelled on AsamK/signal-cli (HttpServerHandler, ServerSentEventSender, JsonRpcReader,
// SignalJsonRpcCommandHandler, SendCommand, CommandUtil, JsonMessageEnvelope):
// - GET /api/v1/check → 200, no body. GET /api/v1/events → 200 `text/event-stream`, events
//   `event:receive` / `data:<json>`, a `:` keep-alive line every 15 s. POST /api/v1/rpc → 200 with
//   the JSON-RPC response (errors too), 201 with no body for a notification (no id). Other paths
//   404, other methods 405, an RPC body not sent as application/json 415, a Host header other
//   than localhost/127.0.0.1/::1 with the server's port 421 (rpc and events only).
// - mode 'multi' (the default, `signal-cli daemon` without -a): `account` in params picks the
//   account (unknown → -32602), `listAccounts` exists, `?account=` on events (unknown → 400).
//   mode 'single' (`signal-cli -a … daemon`): `account` is ignored, `listAccounts` is -32601.
//
// One deliberate difference: the real daemon hands a received message only to the event streams
// connected at that moment (with none, it is printed to stdout and gone for HTTP clients). The
// fake queues messages pushed while no stream is connected and sends them to the next one, so a
// test does not race the adapter's (re)connect. Tests of loss use `dropStreams` + `pushRaw`.
import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { JSON_RPC, RpcFailure, createMethods } from './signal-daemon-methods.js';
import type { SentRecord } from './signal-daemon-methods.js';

export type FakeSignalMode = 'single' | 'multi';

export type RecordedSignalRequest =
  | {
      readonly kind: 'rpc';
      readonly method: string;
      /** As sent, `account` included; undefined when the request had none. */
      readonly params: Record<string, unknown> | undefined;
      readonly id: unknown;
      readonly contentType: string;
    }
  | { readonly kind: 'events'; readonly query: Record<string, string> }
  | { readonly kind: 'check' };

/** An accepted `send`; `timestamp` is what the daemon answered as `result.timestamp`. */
export type SentMessage = SentRecord;

export type RpcErrorBody = { readonly code: number; readonly message: string; readonly data?: unknown };

export type Fault = {
  /** Answer with this HTTP status and no body (as the daemon's HTTP layer does). */
  readonly httpStatus?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** Answer HTTP 200 with this JSON-RPC error. */
  readonly rpcError?: RpcErrorBody;
};

/** `method` is a JSON-RPC method, or 'events' / 'check' for those endpoints. */
export type FaultTarget = string;

export type PushMessage = {
  /** The sender's number, E.164. */
  readonly from: string;
  readonly text: string;
  readonly groupId?: string;
  readonly groupName?: string;
  readonly sourceName?: string;
  readonly sourceUuid?: string;
};

export type FakeSignal = {
  /** The base URL to configure as `http_url`. */
  readonly url: string;
  readonly account: string;
  readonly requests: RecordedSignalRequest[];
  readonly sent: SentMessage[];
  /** Emits a `receive` event with a faithful envelope; returns the envelope timestamp. */
  pushMessage(message: PushMessage): number;
  /** Emits exactly `event:<eventName>` / `data:<data>` (no validation), queued like pushMessage. */
  pushRaw(eventName: string, data: string): void;
  failNext(target: FaultTarget, fault: Fault, times?: number): void;
  /** Cuts every connected event stream: destroyed sockets, or a clean end when `graceful`. */
  dropStreams(options?: { graceful?: boolean }): void;
  /** Event streams connected now. */
  streamCount(): number;
  waitForSent(count: number, timeoutMs?: number): Promise<SentMessage[]>;
  /** Resolves once `count` event-stream connections have been made in total (reconnects count). */
  waitForConnections(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
};

export type FakeSignalOptions = {
  readonly account: string;
  readonly mode?: FakeSignalMode;
  /** Numbers that are not on Signal: sending to them fails as signal-cli does. */
  readonly unregistered?: readonly string[];
  /** Groups the account is in, base64 ids; groups named by pushMessage are added. */
  readonly groups?: readonly string[];
  readonly keepAliveMs?: number;
};


export async function startFakeSignal(options: FakeSignalOptions): Promise<FakeSignal> {
  const mode = options.mode ?? 'multi';
  const account = options.account;
  const unregistered = new Set(options.unregistered ?? []);
  const groups = new Set(options.groups ?? []);
  const requests: RecordedSignalRequest[] = [];
  const sent: SentMessage[] = [];
  const faults = new Map<string, Fault[]>();
  const streams = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  const queued: string[] = [];
  const changes = new EventEmitter();
  let connections = 0;
  let lastTimestamp = 0;
  let port = 0;
  const perform = createMethods({
    mode,
    account,
    unregistered,
    groups,
    timestamp: () => timestamp(),
    recordSent(record) {
      sent.push(record);
      changes.emit('change');
    },
  });

  /** Unique and increasing, as Signal timestamps in one account are in practice. */
  function timestamp(): number {
    lastTimestamp = Math.max(Date.now(), lastTimestamp + 1);
    return lastTimestamp;
  }

  function takeFault(target: string): Fault | undefined {
    const list = faults.get(target);
    const fault = list?.shift();
    if (list && list.length === 0) faults.delete(target);
    return fault;
  }

  function answerFault(res: ServerResponse, fault: Fault, id: unknown): void {
    if (fault.httpStatus !== undefined) {
      res.writeHead(fault.httpStatus, { ...fault.headers });
      res.end();
      return;
    }
    const error = fault.rpcError ?? { code: -32603, message: 'fault' };
    sendJson(res, 200, { jsonrpc: '2.0', error: { code: error.code, message: error.message, data: error.data ?? null }, id }, fault.headers);
  }

  function hostAllowed(req: IncomingMessage): boolean {
    const host = req.headers.host;
    if (!host) return false;
    const match = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d+))?$/.exec(host);
    if (!match) return false;
    const name = (match[1] ?? match[2] ?? '').toLowerCase();
    if (!['localhost', '127.0.0.1', '::1'].includes(name)) return false;
    return match[3] === undefined || Number(match[3]) === port;
  }

  function writeEvent(res: ServerResponse, frame: string): void {
    res.write(frame);
  }

  function emit(frame: string): void {
    if (streams.size === 0) {
      queued.push(frame);
      return;
    }
    for (const res of streams) writeEvent(res, frame);
  }

  function handleEvents(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const query = Object.fromEntries(url.searchParams);
    requests.push({ kind: 'events', query });
    const fault = takeFault('events');
    if (fault) return answerFault(res, fault, null);
    const wanted = query.account;
    if (mode === 'multi' && wanted !== undefined && wanted !== '' && wanted !== account) {
      res.writeHead(400);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.flushHeaders();
    streams.add(res);
    connections++;
    const keepAlive = setInterval(() => res.write(':\n'), options.keepAliveMs ?? 15_000);
    const forget = () => {
      clearInterval(keepAlive);
      streams.delete(res);
    };
    res.on('close', forget);
    for (const frame of queued.splice(0)) writeEvent(res, frame);
    changes.emit('change');
  }

  async function handleRpc(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const contentType = req.headers['content-type'] ?? '';
    if (!contentType.startsWith('application/json')) {
      await readBody(req);
      res.writeHead(415);
      res.end();
      return;
    }
    const raw = await readBody(req);
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (err) {
      return sendJson(res, 200, errorResponse(JSON_RPC.PARSE, (err as Error).message, null));
    }
    if (Array.isArray(json)) {
      if (json.length === 0) return sendJson(res, 200, errorResponse(JSON_RPC.INVALID_REQUEST, 'invalid request', null));
      const answers: unknown[] = [];
      for (const entry of json) {
        const answer = runRequest(entry, contentType);
        if (answer.kind === 'fault') answers.push(faultBody(answer.fault, answer.id));
        else if (answer.body !== null) answers.push(answer.body);
      }
      if (answers.length === 0) {
        res.writeHead(201);
        res.end();
        return;
      }
      return sendJson(res, 200, answers);
    }
    if (typeof json !== 'object' || json === null) {
      return sendJson(res, 200, errorResponse(JSON_RPC.INVALID_REQUEST, `unexpected type: ${json === null ? 'NULL' : typeof json}`, null));
    }
    const answer = runRequest(json, contentType);
    if (answer.kind === 'fault') return answerFault(res, answer.fault, answer.id);
    if (answer.body === null) {
      res.writeHead(201);
      res.end();
      return;
    }
    sendJson(res, 200, answer.body);
  }

  function faultBody(fault: Fault, id: unknown): unknown {
    const error = fault.rpcError ?? { code: -32603, message: `HTTP ${fault.httpStatus ?? 500}` };
    return { jsonrpc: '2.0', error: { code: error.code, message: error.message, data: error.data ?? null }, id };
  }

  type RunAnswer = { kind: 'body'; body: unknown } | { kind: 'fault'; fault: Fault; id: unknown };

  function runRequest(request: unknown, contentType: string): RunAnswer {
    const object = (typeof request === 'object' && request !== null ? request : {}) as Record<string, unknown>;
    const id = isIdValue(object.id) ? object.id : null;
    const hasId = object.id !== undefined && object.id !== null;
    if (object.jsonrpc !== '2.0') return { kind: 'body', body: errorResponse(JSON_RPC.INVALID_REQUEST, 'only jsonrpc version 2.0 is supported', id) };
    if (typeof object.method !== 'string') return { kind: 'body', body: errorResponse(JSON_RPC.INVALID_REQUEST, 'method field must be set', id) };
    const method = object.method;
    const rawParams = object.params ?? undefined;
    const params = typeof rawParams === 'object' && rawParams !== null && !Array.isArray(rawParams) ? (rawParams as Record<string, unknown>) : undefined;
    requests.push({ kind: 'rpc', method, params: params === undefined ? undefined : structuredClone(params), id: object.id, contentType });
    changes.emit('change');
    const fault = takeFault(method);
    if (fault) return { kind: 'fault', fault, id };
    let body: unknown;
    try {
      if (rawParams !== undefined && params === undefined) {
        // Jackson cannot map a non-object into the command's Map<String, Object>.
        throw new RpcFailure(JSON_RPC.INVALID_REQUEST, 'Cannot deserialize value of type `java.util.LinkedHashMap<java.lang.String,java.lang.Object>` from Array value');
      }
      body = { jsonrpc: '2.0', result: perform(method, { ...params }), id };
    } catch (err) {
      if (!(err instanceof RpcFailure)) throw err;
      body = { jsonrpc: '2.0', error: { code: err.code, message: err.message, data: err.data }, id };
    }
    return { kind: 'body', body: hasId ? body : null };
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const route = url.pathname;
    const guarded = route.startsWith('/api/v1/rpc') || route.startsWith('/api/v1/events');
    if (guarded && !hostAllowed(req)) {
      res.writeHead(421);
      res.end();
      return;
    }
    if (route === '/api/v1/check') {
      requests.push({ kind: 'check' });
      if (req.method !== 'GET') return void methodNotAllowed(res);
      const fault = takeFault('check');
      if (fault) return answerFault(res, fault, null);
      res.writeHead(200);
      res.end();
      return;
    }
    if (route === '/api/v1/events') {
      if (req.method !== 'GET') return void methodNotAllowed(res);
      return handleEvents(req, res, url);
    }
    if (route === '/api/v1/rpc') {
      if (req.method !== 'POST') return void methodNotAllowed(res);
      handleRpc(req, res).catch(() => {
        sendJson(res, 200, errorResponse(-32603, 'An internal server error has occurred.', null));
      });
      return;
    }
    res.writeHead(404);
    res.end();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;

  function waitFor<T>(ready: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const value = ready();
        if (value === undefined) return;
        clearTimeout(timer);
        changes.off('change', check);
        resolve(value);
      };
      const timer = setTimeout(() => {
        changes.off('change', check);
        reject(new Error(`fake signal: timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      changes.on('change', check);
      check();
    });
  }

  return {
    url: `http://127.0.0.1:${port}`,
    account,
    requests,
    sent,
    pushMessage(message) {
      const ts = timestamp();
      if (message.groupId) groups.add(message.groupId);
      const dataMessage: Record<string, unknown> = {
        timestamp: ts,
        message: message.text,
        expiresInSeconds: 0,
        viewOnce: false,
      };
      if (message.groupId) {
        dataMessage.groupInfo = { groupId: message.groupId, groupName: message.groupName ?? 'Group', revision: 1, type: 'DELIVER' };
      }
      const envelope = {
        source: message.from,
        sourceNumber: message.from,
        sourceUuid: message.sourceUuid ?? fakeUuid(message.from),
        sourceName: message.sourceName ?? null,
        sourceDevice: 1,
        timestamp: ts,
        serverReceivedTimestamp: ts + 5,
        serverDeliveredTimestamp: ts + 10,
        dataMessage,
      };
      emit(frame('receive', JSON.stringify({ envelope, account })));
      return ts;
    },
    pushRaw(eventName, data) {
      emit(frame(eventName, data));
    },
    failNext(target, fault, times = 1) {
      const list = faults.get(target) ?? [];
      for (let i = 0; i < times; i++) list.push(fault);
      faults.set(target, list);
    },
    dropStreams(dropOptions) {
      for (const res of [...streams]) {
        streams.delete(res);
        if (dropOptions?.graceful) res.end();
        else res.destroy();
      }
    },
    streamCount: () => streams.size,
    waitForSent(count, timeoutMs = 5_000) {
      return waitFor(() => (sent.length >= count ? sent.slice(0, count) : undefined), timeoutMs, `${count} sent message(s), have ${sent.length}`);
    },
    waitForConnections(count, timeoutMs = 5_000) {
      return waitFor(() => (connections >= count ? true : undefined), timeoutMs, `${count} event-stream connection(s), have ${connections}`).then(() => undefined);
    },
    async close() {
      for (const res of streams) res.destroy();
      streams.clear();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** What ServerSentEventSender writes: `event:` and `data:` without a space, a blank line after. */
function frame(eventName: string, data: string): string {
  return `event:${eventName}\n${data.split('\n').map((line) => `data:${line}`).join('\n')}\n\n`;
}

function errorResponse(code: number, message: string, id: unknown): unknown {
  return { jsonrpc: '2.0', error: { code, message, data: null }, id };
}

function isIdValue(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'number';
}

function fakeUuid(number: string): string {
  const digits = number.replace(/\D/g, '').padStart(12, '0').slice(-12);
  return `00000000-0000-4000-8000-${digits}`;
}

function methodNotAllowed(res: ServerResponse): void {
  res.writeHead(405);
  res.end();
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
