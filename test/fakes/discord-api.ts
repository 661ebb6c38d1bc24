// A fake Discord for tests: the REST API (under `${url}`, the api_base to configure) and the
// Gateway (a WebSocket on the same port), speaking the real frames. Tests push messages in and
// assert what went on the wire.
//
// Faithful where the adapter's correctness depends on it:
// - the Gateway says HELLO (op 10), answers each heartbeat (op 1) with HEARTBEAT_ACK (op 11),
//   takes IDENTIFY (op 2; a wrong token closes with 4004), sends READY (op 0 t READY with
//   session_id, resume_gateway_url, user) and dispatches with increasing `s`.
// - RESUME (op 6) with the session's id replays the dispatches after the given seq, then RESUMED;
//   a dispatch made while no socket was connected is kept for that replay, as Discord does. After
//   invalidateSession() (or with an unknown session id) RESUME gets INVALID_SESSION d:false.
// - Without the MESSAGE_CONTENT intent, message content arrives empty (as on Discord).
// - a message the bot posts comes back to it as a MESSAGE_CREATE with itself as author.
// - REST errors are {message, code}; 429 also {retry_after (seconds), global} and a Retry-After
//   header; every send carries X-RateLimit-Limit/Remaining/Reset-After/Bucket for its route, and a
//   send past Remaining 0 before the reset is a 429 (recorded in `violations`).
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export const INTENT_GUILD_MESSAGES = 1 << 9;
export const INTENT_DIRECT_MESSAGES = 1 << 12;
export const INTENT_MESSAGE_CONTENT = 1 << 15;

export type FakeDiscordRequest = { readonly method: string; readonly path: string; readonly body: unknown; readonly authorized: boolean; readonly at: number };
export type FakeDiscordSent = { readonly channelId: string; readonly content: string; readonly id: string; readonly at: number };
/** A frame the client sent, with the connection it came on (0 for the first). */
export type FakeGatewayOp = { readonly op: number; readonly d: unknown; readonly connection: number; readonly at: number };
export type FakeConnection = { readonly index: number; readonly path: string; readonly query: string; readonly at: number };
export type FakeDiscordFault = { readonly status: number; readonly retryAfter?: number; readonly global?: boolean; readonly message?: string; readonly code?: number };
export type FakeChannel = { readonly id: string; readonly type: number; readonly guildId?: string; readonly parentId?: string };

export type FakeDiscordPush = {
  readonly channelId: string;
  /** Absent: a DM (the channel is a DM channel, type 1). */
  readonly guildId?: string;
  readonly authorId: string;
  readonly authorName?: string;
  readonly authorBot?: boolean;
  readonly content: string;
  /** The bot is in mentions[] (the content should carry <@botId> too; the test writes it). */
  readonly mentionsBot?: boolean;
  /** Message type; 0 (DEFAULT) by default. */
  readonly type?: number;
  readonly id?: string;
};

export type FakeDiscordOptions = {
  readonly token: string;
  readonly botId?: string;
  readonly botName?: string;
  /** HELLO's heartbeat_interval (ms). */
  readonly heartbeatIntervalMs?: number;
  /** Per-route send budget: `limit` sends per `resetAfterMs` window. */
  readonly rateLimit?: { readonly limit: number; readonly resetAfterMs: number };
  /** The bot's own posts come back as MESSAGE_CREATE (true by default). */
  readonly echo?: boolean;
};

export type FakeDiscord = {
  /** The api_base to configure (…/api/v10, no trailing slash). */
  readonly url: string;
  readonly gatewayUrl: string;
  readonly token: string;
  readonly botId: string;
  readonly requests: FakeDiscordRequest[];
  readonly sent: FakeDiscordSent[];
  readonly typing: string[];
  readonly ops: FakeGatewayOp[];
  readonly connections: FakeConnection[];
  /** Sends that came while the route's Remaining was 0 and its reset had not passed. */
  readonly violations: { readonly channelId: string; readonly at: number }[];
  addChannel(channel: FakeChannel): void;
  /** Dispatches a MESSAGE_CREATE (kept for a replay when no socket is connected); returns the message id. */
  pushMessage(message: FakeDiscordPush): string;
  /** Dispatches any event with the next sequence number. */
  pushDispatch(t: string, d: unknown): number;
  /** The next `times` message sends answer with this fault. */
  failNext(fault: FakeDiscordFault, times?: number): void;
  setRateLimit(limit: { readonly limit: number; readonly resetAfterMs: number }): void;
  /** Closes the socket abruptly (no close frame), as a network drop does. */
  dropSocket(): void;
  /** Sends RECONNECT (op 7). */
  requestReconnect(): void;
  /** The next RESUME gets INVALID_SESSION d:false. */
  invalidateSession(): void;
  /** On the next RESUME, the last `count` dispatches already sent are sent again too (a duplicate delivery). */
  duplicateOnResume(count: number): void;
  /** How many already-sent dispatches duplicateOnResume has sent again. */
  redelivered(): number;
  /** Creates answered with an earlier message because its nonce was seen (enforce_nonce). */
  noncesHonoured(): number;
  /** While on, heartbeats get no HEARTBEAT_ACK (a zombied connection). */
  withholdAcks(on: boolean): void;
  /** The client's frames with this op. */
  opsOf(op: number): FakeGatewayOp[];
  isConnected(): boolean;
  sessionId(): string | null;
  waitFor(predicate: () => boolean, timeoutMs?: number, what?: string): Promise<void>;
  waitForSent(count: number, timeoutMs?: number): Promise<FakeDiscordSent[]>;
  waitForOps(op: number, count: number, timeoutMs?: number): Promise<FakeGatewayOp[]>;
  close(): Promise<void>;
};

type Dispatch = { readonly s: number; readonly t: string; readonly d: unknown };
type Session = { id: string; seq: number; log: Dispatch[]; valid: boolean };
type Live = { ws: WebSocket; index: number; ready: boolean };
type Answer = { status: number; body: unknown; headers?: Record<string, string> };

const MAX_CONTENT = 2000;
/** How long a nonce with enforce_nonce is remembered (Discord: "the past few minutes"). */
const NONCE_WINDOW_MS = 5 * 60_000;
const error = (status: number, message: string, code: number): Answer => ({ status, body: { message, code } });

let snowflake = 1_100_000_000_000_000_000n;
const nextId = () => String((snowflake += 1n));

export async function startFakeDiscord(options: FakeDiscordOptions): Promise<FakeDiscord> {
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const changed = () => events.emit('change');
  const botId = options.botId ?? '900000000000000001';
  const bot = { id: botId, username: options.botName ?? 'iris-test', discriminator: '0', global_name: null, avatar: null, bot: true };
  const heartbeatInterval = options.heartbeatIntervalMs ?? 41_250;
  const echo = options.echo ?? true;
  let rateLimit = options.rateLimit ?? { limit: 5, resetAfterMs: 5000 };
  const requests: FakeDiscordRequest[] = [];
  const sent: FakeDiscordSent[] = [];
  const nonces = new Map<string, { message: unknown; at: number }>();
  let noncesHonoured = 0;
  const typing: string[] = [];
  const ops: FakeGatewayOp[] = [];
  const connections: FakeConnection[] = [];
  const violations: { channelId: string; at: number }[] = [];
  const channels = new Map<string, FakeChannel>();
  const faults: FakeDiscordFault[] = [];
  const buckets = new Map<string, { remaining: number; resetAt: number }>();
  let session: Session | null = null;
  /** Dispatched before any session existed: given to the first one after its READY. */
  let early: { t: string; d: unknown }[] = [];
  let live: Live | null = null;
  let duplicates = 0;
  let redelivered = 0;
  let acksWithheld = false;

  const server = createServer((req, res) => void handle(req, res));
  const wss = new WebSocketServer({ server });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  const gatewayUrl = `ws://127.0.0.1:${port}`;

  const frame = (ws: WebSocket, payload: { op: number; d: unknown; s?: number | null; t?: string | null }) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ s: null, t: null, ...payload }));
  };
  const sendDispatch = (ws: WebSocket, dispatch: Dispatch) => frame(ws, { op: 0, s: dispatch.s, t: dispatch.t, d: dispatch.d });

  const dispatch = (t: string, d: unknown): number => {
    if (!session) {
      early.push({ t, d });
      changed();
      return 0;
    }
    session.seq += 1;
    const entry = { s: session.seq, t, d };
    session.log.push(entry);
    if (live?.ready) sendDispatch(live.ws, entry);
    changed();
    return entry.s;
  };

  wss.on('connection', (ws, req) => {
    const url = new URL(req.url ?? '/', base);
    const index = connections.length;
    connections.push({ index, path: url.pathname, query: url.search, at: Date.now() });
    // One socket per bot here: a new one replaces the old (the client's old one is gone).
    if (live && live.ws !== ws) live.ws.terminate();
    const me: Live = { ws, index, ready: false };
    live = me;
    changed();
    frame(ws, { op: 10, d: { heartbeat_interval: heartbeatInterval } });
    ws.on('close', () => {
      if (live === me) live = null;
      changed();
    });
    ws.on('message', (data) => {
      let payload: { op?: unknown; d?: unknown };
      try {
        payload = JSON.parse((Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(new Uint8Array(data))).toString('utf8')) as { op?: unknown; d?: unknown };
      } catch {
        ws.close(4002, 'Error while decoding payload.');
        return;
      }
      const op = typeof payload.op === 'number' ? payload.op : -1;
      ops.push({ op, d: payload.d, connection: index, at: Date.now() });
      changed();
      const d = (payload.d ?? {}) as Record<string, unknown>;
      if (op === 1) {
        if (!acksWithheld) frame(ws, { op: 11, d: null });
      }
      else if (op === 2) identify(me, d);
      else if (op === 6) resume(me, d);
      else if (op !== 3) ws.close(4001, 'Unknown opcode.');
    });
  });

  function identify(me: Live, d: Record<string, unknown>): void {
    if (d.token !== options.token) {
      me.ws.close(4004, 'Authentication failed.');
      return;
    }
    if (me.ready) {
      me.ws.close(4005, 'Already authenticated.');
      return;
    }
    if (typeof d.intents !== 'number') {
      me.ws.close(4013, 'Invalid intent(s).');
      return;
    }
    session = { id: randomBytes(16).toString('hex'), seq: 0, log: [], valid: true };
    me.ready = true;
    dispatch('READY', {
      v: 10,
      user: bot,
      guilds: [],
      session_id: session.id,
      resume_gateway_url: `${gatewayUrl}/resume`,
      shard: [0, 1],
      application: { id: botId, flags: 0 },
    });
    const pending = early;
    early = [];
    for (const event of pending) dispatch(event.t, event.d);
  }

  function resume(me: Live, d: Record<string, unknown>): void {
    if (d.token !== options.token) {
      me.ws.close(4004, 'Authentication failed.');
      return;
    }
    if (!session || !session.valid || d.session_id !== session.id || typeof d.seq !== 'number') {
      // Discord waits 1–5 s before an INVALID_SESSION; a little here keeps the order realistic.
      setTimeout(() => frame(me.ws, { op: 9, d: false }), 20);
      return;
    }
    const from = d.seq;
    const replay = session.log.filter((entry) => entry.s > from);
    const dup = duplicates > 0 ? session.log.filter((entry) => entry.s <= from && entry.t === 'MESSAGE_CREATE').slice(-duplicates) : [];
    duplicates = 0;
    redelivered += dup.length;
    me.ready = true;
    for (const entry of [...dup, ...replay]) sendDispatch(me.ws, entry);
    dispatch('RESUMED', null);
  }

  function intents(): number {
    const last = [...ops].reverse().find((entry) => entry.op === 2);
    const d = last?.d as { intents?: unknown } | undefined;
    return typeof d?.intents === 'number' ? d.intents : 0;
  }

  function messageObject(push: FakeDiscordPush): Record<string, unknown> {
    const id = push.id ?? nextId();
    return {
      id,
      type: push.type ?? 0,
      channel_id: push.channelId,
      ...(push.guildId !== undefined ? { guild_id: push.guildId } : {}),
      author: { id: push.authorId, username: push.authorName ?? `user${push.authorId.slice(-4)}`, discriminator: '0', global_name: null, avatar: null, ...(push.authorBot ? { bot: true } : {}) },
      content: push.content,
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: push.mentionsBot ? [bot] : [],
      mention_roles: [],
      attachments: [],
      embeds: [],
      pinned: false,
    };
  }

  function pushMessage(push: FakeDiscordPush): string {
    if (!channels.has(push.channelId)) {
      channels.set(push.channelId, push.guildId !== undefined ? { id: push.channelId, type: 0, guildId: push.guildId } : { id: push.channelId, type: 1 });
    }
    const message = messageObject(push);
    // Without MESSAGE_CONTENT, a bot sees the content only of DMs and of messages that mention it.
    const sees = (intents() & INTENT_MESSAGE_CONTENT) !== 0 || push.guildId === undefined || push.mentionsBot === true;
    dispatch('MESSAGE_CREATE', sees ? message : { ...message, content: '' });
    return String(message.id);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown = undefined;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = text;
    }
    const url = new URL(req.url ?? '/', base);
    const path = url.pathname.replace(/^\/api\/v10/, '');
    const authorized = req.headers.authorization === `Bot ${options.token}`;
    requests.push({ method: req.method ?? 'GET', path, body, authorized, at: Date.now() });
    changed();
    const answer = route(req.method ?? 'GET', path, body, authorized);
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(answer.status === 204 ? undefined : JSON.stringify(answer.body));
  }

  function route(method: string, path: string, body: unknown, authorized: boolean): Answer {
    if (!authorized) return error(401, '401: Unauthorized', 0);
    if (method === 'GET' && path === '/gateway/bot') {
      return { status: 200, body: { url: gatewayUrl, shards: 1, session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 } } };
    }
    if (method === 'GET' && path === '/users/@me') return { status: 200, body: bot };
    const channel = /^\/channels\/(\d+)(\/messages|\/typing)?$/.exec(path);
    if (channel) {
      const id = channel[1] as string;
      const known = channels.get(id);
      if (!known) return error(404, 'Unknown Channel', 10003);
      if (method === 'GET' && channel[2] === undefined) {
        return { status: 200, body: { id, type: known.type, ...(known.guildId ? { guild_id: known.guildId } : {}), ...(known.parentId ? { parent_id: known.parentId } : {}) } };
      }
      if (method === 'POST' && channel[2] === '/typing') {
        typing.push(id);
        changed();
        return { status: 204, body: null };
      }
      if (method === 'POST' && channel[2] === '/messages') return createMessage(known, body);
    }
    return error(404, '404: Not Found', 0);
  }

  function createMessage(channel: FakeChannel, body: unknown): Answer {
    const now = Date.now();
    const bucketId = `msg-${channel.id}`;
    let bucket = buckets.get(channel.id);
    if (!bucket || bucket.resetAt <= now) bucket = { remaining: rateLimit.limit, resetAt: now + rateLimit.resetAfterMs };
    buckets.set(channel.id, bucket);
    const limitHeaders = (remaining: number) => ({
      'x-ratelimit-limit': String(rateLimit.limit),
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': String((bucket.resetAt / 1000).toFixed(3)),
      'x-ratelimit-reset-after': String(((bucket.resetAt - now) / 1000).toFixed(3)),
      'x-ratelimit-bucket': bucketId,
    });
    if (bucket.remaining <= 0) {
      violations.push({ channelId: channel.id, at: now });
      const retryAfter = (bucket.resetAt - now) / 1000;
      return { status: 429, body: { message: 'You are being rate limited.', retry_after: retryAfter, global: false }, headers: { ...limitHeaders(0), 'retry-after': String(Math.ceil(retryAfter)), 'x-ratelimit-scope': 'user' } };
    }
    const fault = faults.shift();
    if (fault) {
      if (fault.status === 429) {
        const retryAfter = fault.retryAfter ?? 1;
        return { status: 429, body: { message: fault.message ?? 'You are being rate limited.', retry_after: retryAfter, global: fault.global ?? false, ...(fault.code !== undefined ? { code: fault.code } : {}) }, headers: { 'retry-after': String(Math.ceil(retryAfter)), ...(fault.global ? { 'x-ratelimit-global': 'true', 'x-ratelimit-scope': 'global' } : {}) } };
      }
      return error(fault.status, fault.message ?? `${fault.status}: fault`, fault.code ?? 0);
    }
    bucket.remaining -= 1;
    // enforce_nonce: a nonce this author used in the last few minutes returns that message, and
    // nothing new is posted (Discord's idempotency for message creation).
    const { nonce, enforce_nonce: enforce } = (body ?? {}) as { nonce?: unknown; enforce_nonce?: unknown };
    if (enforce === true && (typeof nonce === 'string' || typeof nonce === 'number')) {
      const earlier = nonces.get(`${channel.id}:${String(nonce)}`);
      if (earlier && now - earlier.at < NONCE_WINDOW_MS) {
        noncesHonoured += 1;
        return { status: 200, body: earlier.message, headers: limitHeaders(bucket.remaining) };
      }
    }
    const content = (body as { content?: unknown } | undefined)?.content;
    if (typeof content !== 'string' || content === '') return { ...error(400, 'Cannot send an empty message', 50006), headers: limitHeaders(bucket.remaining) };
    if ([...content].length > MAX_CONTENT) {
      return { status: 400, body: { message: 'Invalid Form Body', code: 50035, errors: { content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' }] } } }, headers: limitHeaders(bucket.remaining) };
    }
    const message = messageObject({ channelId: channel.id, ...(channel.guildId ? { guildId: channel.guildId } : {}), authorId: botId, authorName: bot.username, authorBot: true, content });
    sent.push({ channelId: channel.id, content, id: String(message.id), at: now });
    if (enforce === true && (typeof nonce === 'string' || typeof nonce === 'number')) nonces.set(`${channel.id}:${String(nonce)}`, { message, at: now });
    changed();
    if (echo) dispatch('MESSAGE_CREATE', message);
    return { status: 200, body: message, headers: limitHeaders(bucket.remaining) };
  }

  const waitFor = (predicate: () => boolean, timeoutMs = 5000, what = 'condition') =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!predicate()) return;
        clearTimeout(timer);
        events.off('change', check);
        resolve();
      };
      const timer = setTimeout(() => {
        events.off('change', check);
        reject(new Error(`fake Discord: timed out waiting for ${what}`));
      }, timeoutMs);
      events.on('change', check);
      check();
    });

  const opsOf = (op: number) => ops.filter((entry) => entry.op === op);

  return {
    url: `${base}/api/v10`,
    gatewayUrl,
    token: options.token,
    botId,
    requests,
    sent,
    typing,
    ops,
    connections,
    violations,
    addChannel: (channel) => void channels.set(channel.id, channel),
    pushMessage,
    pushDispatch: dispatch,
    failNext: (fault, times = 1) => {
      for (let i = 0; i < times; i += 1) faults.push(fault);
    },
    setRateLimit: (limit) => {
      rateLimit = limit;
      buckets.clear();
    },
    dropSocket: () => {
      if (live) {
        live.ws.terminate();
        live = null;
        changed();
      }
    },
    requestReconnect: () => {
      if (live) frame(live.ws, { op: 7, d: null });
    },
    invalidateSession: () => {
      if (session) session.valid = false;
    },
    duplicateOnResume: (count) => {
      duplicates = count;
    },
    redelivered: () => redelivered,
    noncesHonoured: () => noncesHonoured,
    withholdAcks: (on) => {
      acksWithheld = on;
    },
    opsOf,
    isConnected: () => live?.ready === true,
    sessionId: () => session?.id ?? null,
    waitFor,
    async waitForSent(count, timeoutMs) {
      await waitFor(() => sent.length >= count, timeoutMs, `${count} sent message(s), have ${sent.length}`);
      return sent.slice(0, count);
    },
    async waitForOps(op, count, timeoutMs) {
      await waitFor(() => opsOf(op).length >= count, timeoutMs, `${count} op ${op} frame(s)`);
      return opsOf(op).slice(0, count);
    },
    async close() {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
