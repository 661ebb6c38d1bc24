// A fake Slack for tests: the Web API (HTTP on 127.0.0.1, port 0) and a Socket Mode websocket
// server on the same port. Tests push DMs and mentions in, point `platforms.slack.extra.api_base`
// at `url`, and assert what went on the wire.
//
// Faithful where the adapter's correctness depends on it:
// - Web API methods are POST https://slack.com/api/<method> with `Authorization: Bearer <token>`;
//   errors are HTTP 200 `{ok:false,error:"..."}`, except a rate limit: HTTP 429 with a
//   `Retry-After` header (seconds) and `{ok:false,error:"ratelimited"}`.
// - apps.connections.open takes the app-level token (xapp-) and answers `{ok:true,url}`;
//   auth.test and chat.postMessage take the bot token (xoxb-). The wrong kind: invalid_auth.
// - the socket says `{type:"hello",num_connections,debug_info,connection_info:{app_id}}` first;
//   events come as `{envelope_id,type:"events_api",payload,accepts_response_payload:false,
//   retry_attempt,retry_reason}`; the app acks with `{envelope_id}`. An envelope not acked in time
//   is sent again under a NEW envelope_id with retry_attempt + 1 (as Slack retries an event).
// - `{type:"disconnect",reason,debug_info}` then the server closes the socket.
// - chat.postMessage takes `metadata` ({event_type, event_payload}, an object or its JSON text);
//   a bad one is `invalid_metadata_format`, an event_type not [a-z0-9_] `invalid_metadata_schema`.
//   conversations.history (a channel's top-level messages) and conversations.replies (a thread:
//   its parent, then its replies) answer newest first (replies: oldest first, as Slack), `limit`
//   (default 100, at most 999) with `has_more` and `response_metadata.next_cursor`; a message's
//   `metadata` only with `include_all_metadata: true`. Both need the bot token.
// - `loseAnswerNext`: the call is done (a post is stored) but its answer never arrives (the
//   connection is cut), as when a sender dies between Slack taking a message and hearing back.
import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';

export type FakeSlackRequest = { readonly method: string; readonly token: string; readonly params: Record<string, unknown>; readonly at: number };
export type FakeSlackMetadata = { readonly event_type: string; readonly event_payload: Record<string, unknown> };
export type FakeSlackSent = {
  readonly channel: string;
  readonly text: string;
  readonly thread_ts: string | undefined;
  readonly mrkdwn: unknown;
  readonly ts: string;
  readonly metadata?: FakeSlackMetadata;
};
export type FakeSlackFault = { readonly status?: number; readonly error?: string; readonly retryAfter?: number };
export type FakeSlackAck = { readonly envelope_id: string; readonly at: number };
export type FakeSlackEnvelope = { readonly envelope_id: string; readonly eventTs: string; readonly retry_attempt: number; acked: boolean };

export type FakeSlackPush = {
  readonly user: string;
  readonly text: string;
  /** DM channel (D…) for pushMessage, a channel (C…) for pushMention. */
  readonly channel: string;
  readonly threadTs?: string;
  readonly botId?: string;
  readonly subtype?: string;
};

export type FakeSlack = {
  /** The api_base to configure, e.g. http://127.0.0.1:1234/api. */
  readonly url: string;
  readonly appToken: string;
  readonly botToken: string;
  readonly botUserId: string;
  readonly requests: FakeSlackRequest[];
  readonly sent: FakeSlackSent[];
  readonly acks: FakeSlackAck[];
  /** Every envelope sent, re-sends included, in order. */
  readonly envelopes: FakeSlackEnvelope[];
  /** Sockets opened so far (a reconnect adds one). */
  connections(): number;
  /** Open sockets now. */
  openSockets(): number;
  /** A message.im event; returns its ts. */
  pushMessage(push: FakeSlackPush): string;
  /** An app_mention event in a channel (text gets the `<@bot>` prefix); returns its ts. */
  pushMention(push: FakeSlackPush): string;
  /** Any payload as an envelope (malformed ones too); returns the envelope_id. */
  pushRawEnvelope(envelope: Record<string, unknown>): string;
  /** Any text frame. */
  pushRawFrame(text: string): void;
  /** The next `times` calls of `method` fail: HTTP `status` (200 by default) with `error`. */
  failNext(method: string, fault: FakeSlackFault, times?: number): void;
  /** The next `times` calls of `method` are carried out, and their connection is cut before the answer. */
  loseAnswerNext(method: string, times?: number): void;
  /** Sends `{type:"disconnect",reason}` then closes every socket. */
  disconnect(reason?: string): void;
  /** Terminates every socket without a word. */
  dropSocket(): void;
  /** While on, new sockets are refused (apps.connections.open still answers). */
  refuseSockets(on: boolean): void;
  /** While on, acks are recorded but ignored (the envelope is re-sent). */
  ignoreAcks(on: boolean): void;
  /** While on, pings are not answered (a socket that died without a close). */
  mutePongs(on: boolean): void;
  calls(method: string): FakeSlackRequest[];
  /** Resolves once `predicate` holds (checked on every change and every 20 ms); rejects after timeoutMs. */
  waitFor(predicate: () => boolean, timeoutMs?: number, what?: string): Promise<void>;
  waitForSent(count: number, timeoutMs?: number): Promise<FakeSlackSent[]>;
  close(): Promise<void>;
};

export type FakeSlackOptions = {
  readonly appToken?: string;
  readonly botToken?: string;
  readonly botUserId?: string;
  /** An envelope not acked within this is sent again; 3000 like Slack. */
  readonly ackTimeoutMs?: number;
  /** How many times an unacked event is re-sent; 3 like Slack. */
  readonly maxRetries?: number;
};

const MAX_TEXT = 40_000;

export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const appToken = options.appToken ?? 'xapp-1-A111-222-fakeapptoken';
  const botToken = options.botToken ?? 'xoxb-111-222-fakebottoken';
  const botUserId = options.botUserId ?? 'UBOT0001';
  const ackTimeoutMs = options.ackTimeoutMs ?? 3000;
  const maxRetries = options.maxRetries ?? 3;
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const changed = () => events.emit('change');
  const requests: FakeSlackRequest[] = [];
  const sent: FakeSlackSent[] = [];
  const acks: FakeSlackAck[] = [];
  const envelopes: FakeSlackEnvelope[] = [];
  const faults = new Map<string, FakeSlackFault[]>();
  const sockets = new Set<WebSocket>();
  const timers = new Set<NodeJS.Timeout>();
  /** Envelopes waiting for an ack: payload kept for the re-send. */
  const unacked = new Map<string, { payload: Record<string, unknown>; type: string; attempt: number; eventTs: string }>();
  const tickets = new Set<string>();
  let connections = 0;
  let refusing = false;
  let ignoring = false;
  let pongsMuted = false;
  let seq = 0;
  let tsCounter = 0;
  const nextTs = () => {
    tsCounter += 1;
    return `${Math.floor(Date.now() / 1000)}.${String(tsCounter).padStart(6, '0')}`;
  };

  const broadcast = (frame: unknown) => {
    const text = JSON.stringify(frame);
    for (const socket of sockets) if (socket.readyState === socket.OPEN) socket.send(text);
  };

  /** Envelopes made while no socket was open: sent on the next connection. */
  const undelivered: string[] = [];

  const deliver = (envelopeId: string) => {
    const waiting = unacked.get(envelopeId);
    if (!waiting) return;
    broadcast({ envelope_id: envelopeId, type: waiting.type, payload: waiting.payload, accepts_response_payload: false, retry_attempt: waiting.attempt, retry_reason: waiting.attempt > 0 ? 'timeout' : '' });
    const timer = setTimeout(() => {
      timers.delete(timer);
      const stale = unacked.get(envelopeId);
      if (!stale) return;
      unacked.delete(envelopeId);
      if (stale.attempt < maxRetries) sendEnvelope(stale.type, stale.payload, stale.attempt + 1, stale.eventTs);
    }, ackTimeoutMs);
    timers.add(timer);
  };

  const sendEnvelope = (type: string, payload: Record<string, unknown>, attempt: number, eventTs: string): string => {
    seq += 1;
    const envelopeId = `env-${seq}-${Math.random().toString(16).slice(2, 10)}`;
    envelopes.push({ envelope_id: envelopeId, eventTs, retry_attempt: attempt, acked: false });
    unacked.set(envelopeId, { payload, type, attempt, eventTs });
    if ([...sockets].some((socket) => socket.readyState === socket.OPEN)) deliver(envelopeId);
    else undelivered.push(envelopeId);
    changed();
    return envelopeId;
  };

  const eventCallback = (event: Record<string, unknown>) => ({
    token: 'verification-token',
    team_id: 'T0001',
    api_app_id: 'A0001',
    event,
    type: 'event_callback',
    event_id: `Ev${seq + 1}${Math.random().toString(36).slice(2, 8).toUpperCase()}`,
    event_time: Math.floor(Date.now() / 1000),
  });

  const pushEvent = (event: Record<string, unknown>, ts: string): string => {
    sendEnvelope('events_api', eventCallback(event), 0, ts);
    return ts;
  };

  const baseEvent = (push: FakeSlackPush, ts: string) => ({
    user: push.user,
    ts,
    event_ts: ts,
    channel: push.channel,
    ...(push.threadTs !== undefined ? { thread_ts: push.threadTs } : {}),
    ...(push.botId !== undefined ? { bot_id: push.botId } : {}),
    ...(push.subtype !== undefined ? { subtype: push.subtype } : {}),
  });

  // ---- Web API ----
  const answer = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  };

  const readParams = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const type = req.headers['content-type'] ?? '';
    if (raw === '') return {};
    if (type.includes('application/json')) {
      try {
        const parsed: unknown = JSON.parse(raw);
        return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
      } catch {
        return {};
      }
    }
    return Object.fromEntries(new URLSearchParams(raw));
  };

  const losing = new Map<string, number>();
  const asMessage = (m: FakeSlackSent) => ({ type: 'message', user: botUserId, bot_id: 'B0001', text: m.text, ts: m.ts, ...(m.thread_ts ? { thread_ts: m.thread_ts } : {}) });

  /** conversations.history / conversations.replies over what was posted. */
  const readHistory = (method: string, params: Record<string, unknown>): Record<string, unknown> => {
    const channel = typeof params.channel === 'string' ? params.channel : '';
    if (channel === '') return { ok: false, error: 'channel_not_found' };
    const withMetadata = params.include_all_metadata === true || params.include_all_metadata === 'true';
    const limit = Math.min(999, Math.max(1, Number(params.limit ?? 100) || 100));
    const cursor = typeof params.cursor === 'string' && /^\d+$/.test(params.cursor) ? Number(params.cursor) : 0;
    let messages: FakeSlackSent[];
    if (method === 'conversations.replies') {
      const ts = typeof params.ts === 'string' ? params.ts : '';
      if (ts === '') return { ok: false, error: 'thread_not_found' };
      messages = sent.filter((m) => m.channel === channel && (m.ts === ts || m.thread_ts === ts));
    } else {
      messages = sent.filter((m) => m.channel === channel && m.thread_ts === undefined).reverse();
    }
    const page = messages.slice(cursor, cursor + limit);
    const more = cursor + limit < messages.length;
    return {
      ok: true,
      messages: page.map((m) => ({ ...asMessage(m), ...(withMetadata && m.metadata ? { metadata: m.metadata } : {}) })),
      has_more: more,
      ...(method === 'conversations.history' ? { pin_count: 0 } : {}),
      response_metadata: { next_cursor: more ? String(cursor + limit) : '' },
    };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const match = /^\/api\/([A-Za-z.]+)$/.exec(path);
    const params = await readParams(req);
    const auth = req.headers.authorization ?? '';
    const token = auth.startsWith('Bearer ') ? auth.slice(7) : typeof params.token === 'string' ? params.token : '';
    const method = match?.[1] ?? path;
    requests.push({ method, token, params, at: Date.now() });
    changed();
    if (!match) return answer(res, 404, { ok: false, error: 'unknown_method' });
    if (token === '') return answer(res, 200, { ok: false, error: 'not_authed' });
    const wanted = method === 'apps.connections.open' ? appToken : botToken;
    if (method === 'apps.connections.open' && token === botToken) return answer(res, 200, { ok: false, error: 'not_allowed_token_type' });
    if (token !== wanted) return answer(res, 200, { ok: false, error: 'invalid_auth' });
    const queued = faults.get(method);
    const fault = queued?.shift();
    if (fault) {
      const status = fault.status ?? 200;
      const headers: Record<string, string> = fault.retryAfter !== undefined ? { 'retry-after': String(fault.retryAfter) } : {};
      if (status >= 500) {
        res.writeHead(status, { 'content-type': 'text/html' });
        res.end('<html><body>upstream error</body></html>');
        return;
      }
      return answer(res, status, { ok: false, error: fault.error ?? (status === 429 ? 'ratelimited' : 'fatal_error') }, headers);
    }
    const lost = (losing.get(method) ?? 0) > 0;
    if (lost) {
      losing.set(method, (losing.get(method) ?? 0) - 1);
      // Carried out below; the answer goes nowhere.
      res = Object.assign(Object.create(res) as ServerResponse, {
        writeHead: () => res,
        end: () => {
          req.socket.destroy();
          return res;
        },
      });
    }
    switch (method) {
      case 'conversations.history':
      case 'conversations.replies':
        return answer(res, 200, readHistory(method, params));
      case 'apps.connections.open': {
        const ticket = Math.random().toString(16).slice(2);
        tickets.add(ticket);
        const { port } = server.address() as AddressInfo;
        return answer(res, 200, { ok: true, url: `ws://127.0.0.1:${port}/link/?ticket=${ticket}&app_id=A0001` });
      }
      case 'auth.test':
        return answer(res, 200, { ok: true, url: 'https://iris-test.slack.com/', team: 'Iris Test', user: 'iris', team_id: 'T0001', user_id: botUserId, bot_id: 'B0001', is_enterprise_install: false });
      case 'chat.postMessage': {
        const channel = typeof params.channel === 'string' ? params.channel : '';
        const text = typeof params.text === 'string' ? params.text : '';
        if (channel === '') return answer(res, 200, { ok: false, error: 'channel_not_found' });
        if (text === '') return answer(res, 200, { ok: false, error: 'no_text' });
        if (text.length > MAX_TEXT) return answer(res, 200, { ok: false, error: 'msg_too_long' });
        const threadTs = typeof params.thread_ts === 'string' ? params.thread_ts : undefined;
        const metadata = readMetadata(params.metadata);
        if (metadata === 'format') return answer(res, 200, { ok: false, error: 'invalid_metadata_format' });
        if (metadata === 'schema') return answer(res, 200, { ok: false, error: 'invalid_metadata_schema' });
        const ts = nextTs();
        sent.push({ channel, text, thread_ts: threadTs, mrkdwn: params.mrkdwn, ts, ...(metadata ? { metadata } : {}) });
        changed();
        return answer(res, 200, { ok: true, channel, ts, message: { ...asMessage(sent.at(-1)!), ...(metadata ? { metadata } : {}) } });
      }
      default:
        return answer(res, 200, { ok: false, error: 'unknown_method' });
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) answer(res, 500, { ok: false, error: 'fatal_error' });
    });
  });

  // ---- Socket Mode ----
  // Pongs by hand, so a test can play a socket that died silently.
  const wss = new WebSocketServer({ noServer: true, autoPong: false });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const ticket = url.searchParams.get('ticket') ?? '';
    if (refusing || url.pathname !== '/link/' || !tickets.delete(ticket)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      connections += 1;
      sockets.add(ws);
      ws.on('close', () => {
        sockets.delete(ws);
        changed();
      });
      ws.on('error', () => undefined);
      ws.on('ping', (data) => {
        if (!pongsMuted) ws.pong(data);
      });
      ws.on('message', (data) => {
        let frame: unknown;
        try {
          frame = JSON.parse(rawText(data));
        } catch {
          return;
        }
        const id = frame !== null && typeof frame === 'object' ? (frame as { envelope_id?: unknown }).envelope_id : undefined;
        if (typeof id !== 'string') return;
        acks.push({ envelope_id: id, at: Date.now() });
        if (!ignoring && unacked.delete(id)) {
          const record = envelopes.find((envelope) => envelope.envelope_id === id);
          if (record) record.acked = true;
        }
        changed();
      });
      ws.send(JSON.stringify({ type: 'hello', num_connections: sockets.size, debug_info: { host: 'fake-slack', build_number: 1, approximate_connection_time: 18060 }, connection_info: { app_id: 'A0001' } }));
      // Events that came while no app was connected are delivered now.
      for (const id of undelivered.splice(0)) deliver(id);
      changed();
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const waitFor = (predicate: () => boolean, timeoutMs = 10_000, what = 'condition') =>
    new Promise<void>((resolve, reject) => {
      if (predicate()) return resolve();
      // Checked on every change of the fake and every 20 ms (for conditions on the client's side).
      const onChange = () => {
        if (!predicate()) return;
        clearTimeout(timer);
        clearInterval(poll);
        events.off('change', onChange);
        resolve();
      };
      const poll = setInterval(onChange, 20);
      const timer = setTimeout(() => {
        clearInterval(poll);
        events.off('change', onChange);
        reject(new Error(`fake Slack: timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      events.on('change', onChange);
    });

  return {
    url: `http://127.0.0.1:${port}/api`,
    appToken,
    botToken,
    botUserId,
    requests,
    sent,
    acks,
    envelopes,
    connections: () => connections,
    openSockets: () => [...sockets].filter((socket) => socket.readyState === socket.OPEN).length,
    pushMessage(push) {
      const ts = nextTs();
      return pushEvent({ type: 'message', channel_type: push.channel.startsWith('D') ? 'im' : 'channel', text: push.text, ...baseEvent(push, ts) }, ts);
    },
    pushMention(push) {
      const ts = nextTs();
      return pushEvent({ type: 'app_mention', text: `<@${botUserId}> ${push.text}`, ...baseEvent(push, ts) }, ts);
    },
    pushRawEnvelope(envelope) {
      seq += 1;
      const id = typeof envelope.envelope_id === 'string' ? envelope.envelope_id : `raw-${seq}`;
      broadcast({ envelope_id: id, ...envelope });
      return id;
    },
    pushRawFrame(text) {
      for (const socket of sockets) if (socket.readyState === socket.OPEN) socket.send(text);
    },
    loseAnswerNext(method, times = 1) {
      losing.set(method, (losing.get(method) ?? 0) + times);
    },
    failNext(method, fault, times = 1) {
      const list = faults.get(method) ?? [];
      for (let i = 0; i < times; i += 1) list.push(fault);
      faults.set(method, list);
    },
    disconnect(reason = 'refresh_requested') {
      broadcast({ type: 'disconnect', reason, debug_info: { host: 'fake-slack' } });
      for (const socket of sockets) socket.close(1000, reason);
    },
    dropSocket() {
      for (const socket of sockets) socket.terminate();
    },
    refuseSockets(on) {
      refusing = on;
    },
    ignoreAcks(on) {
      ignoring = on;
    },
    mutePongs(on) {
      pongsMuted = on;
    },
    calls: (method) => requests.filter((request) => request.method === method),
    waitFor,
    async waitForSent(count, timeoutMs = 10_000) {
      await waitFor(() => sent.length >= count, timeoutMs, `${count} chat.postMessage call(s), have ${sent.length}`);
      return sent.slice(0, count);
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const socket of sockets) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(new Uint8Array(data)).toString('utf8');
}

/** chat.postMessage's `metadata` as Slack reads it: an object (or its JSON text) with event_type and event_payload. */
function readMetadata(raw: unknown): FakeSlackMetadata | undefined | 'format' | 'schema' {
  if (raw === undefined) return undefined;
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return 'format';
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'format';
  const { event_type: type, event_payload: payload } = value as Record<string, unknown>;
  if (typeof type !== 'string' || payload === null || typeof payload !== 'object' || Array.isArray(payload)) return 'format';
  if (!/^[a-z0-9_]+$/.test(type)) return 'schema';
  return { event_type: type, event_payload: payload as Record<string, unknown> };
}
