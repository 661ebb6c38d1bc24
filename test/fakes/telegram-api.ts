// A fake Telegram Bot API for tests and the demo: a real HTTP server on 127.0.0.1 (port 0) that
// keeps an update queue the way Telegram does and records every call. Tests push messages in,
// point `platforms.telegram.extra.api_base` at `url`, and assert what went on the wire.
//
// Faithful where the adapter's correctness depends on it:
// - getUpdates returns updates with update_id >= offset and forgets those below it (an update is
//   confirmed by asking with a higher offset); without an offset, the earliest unconfirmed ones.
// - a long poll (timeout > 0) waits until an update arrives or the timeout passes; a newer
//   getUpdates terminates a waiting one with 409 "Conflict: terminated by other getUpdates request".
// - while a webhook is set, getUpdates answers 409; deleteWebhook with drop_pending_updates drops.
// - errors are {ok:false,error_code,description[,parameters:{retry_after}]} with the same HTTP status.
// - sendMessage checks chat_id, empty and over-long text (4096 visible characters) and HTML.
import { Buffer } from 'node:buffer';
import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readTelegramHtml } from './telegram-api-html.js';

export type FakeTelegramRequest = {
  /** As the client spelled it in the path. */
  readonly method: string;
  /** Query, JSON body or form fields, merged; form and query values are strings. */
  readonly params: Record<string, unknown>;
  /** Epoch milliseconds. */
  readonly at: number;
};

export type FakeSentMessage = {
  readonly chat_id: string;
  readonly text: string;
  readonly parse_mode: string | undefined;
  readonly message_thread_id: number | undefined;
  readonly message_id: number;
};

export type FakeFault = { readonly status: number; readonly description?: string; readonly retryAfter?: number };

/**
 * A slow sendMessage (crash tests): `beforeMs` passes before the message is taken (a client gone by
 * then never sent it), `afterMs` after it is taken and before the 200 goes out (a client gone by
 * then sent a message it never heard about: the at-least-once window).
 */
export type FakeSendDelay = { readonly beforeMs?: number; readonly afterMs?: number };

export type FakePush = {
  readonly chatId: number | string;
  readonly userId: number | string;
  readonly text: string;
  readonly chatType?: 'private' | 'group' | 'supergroup';
  /** A forum topic: the message gets message_thread_id and is_topic_message. */
  readonly threadId?: number;
  readonly userName?: string;
  /** Epoch seconds; now by default. */
  readonly date?: number;
};

export type FakeTelegram = {
  /** The api_base to configure (no trailing slash). */
  readonly url: string;
  readonly token: string;
  /** Every call in arrival order, wrong tokens and unknown methods included. */
  readonly requests: FakeTelegramRequest[];
  /** Accepted sendMessage calls. */
  readonly sent: FakeSentMessage[];
  /** Parallel to `sent`: when that call's 200 was written to a client still connected (epoch ms), or null. */
  readonly sentAnsweredAt: Array<number | null>;
  /** sendMessage calls taken or waiting in a delay right now. */
  sendsInFlight(): number;
  /** Updates not yet confirmed, oldest first. */
  pending(): readonly Record<string, unknown>[];
  /** Queues a message update (waking a waiting long poll); returns its update_id. */
  pushMessage(message: FakePush): number;
  /** Queues any object as an update; update_id is added unless the object has that key. */
  pushRawUpdate(update: Record<string, unknown>): number;
  /** The next `times` calls of `method` answer with this error (after the token check). */
  failNext(method: string, fault: FakeFault, times?: number): void;
  /** While on, sendMessage with any parse_mode answers 400 "can't parse entities". */
  refuseHtml(on: boolean): void;
  /** Each later sendMessage asks `plan` how slow it is (undefined: not slow); null turns it off (the default). */
  slowSends(plan: ((params: Record<string, unknown>) => FakeSendDelay | undefined) | null): void;
  /** The calls of one method recorded so far. */
  calls(method: string): FakeTelegramRequest[];
  /** Resolves once `predicate` holds (checked on every call and at once); rejects after timeoutMs. */
  waitFor(predicate: () => boolean, timeoutMs?: number, what?: string): Promise<void>;
  waitForSent(count: number, timeoutMs?: number): Promise<FakeSentMessage[]>;
  waitForCalls(method: string, count: number, timeoutMs?: number): Promise<FakeTelegramRequest[]>;
  close(): Promise<void>;
};

export type FakeTelegramOptions = { readonly token: string; readonly botUsername?: string };

const MAX_TEXT = 4096;
const UPDATE_TYPES = ['message', 'edited_message', 'channel_post', 'edited_channel_post', 'callback_query', 'my_chat_member', 'chat_member'];
const PARSE_MODES = ['HTML', 'Markdown', 'MarkdownV2'];
const CHAT_ACTIONS = ['typing', 'upload_photo', 'record_video', 'upload_video', 'record_voice', 'upload_voice', 'upload_document', 'choose_sticker', 'find_location'];

type Answer = { status: number; body: unknown };
type Poll = { res: ServerResponse; limit: number; timer: NodeJS.Timeout };

const ok = (result: unknown): Answer => ({ status: 200, body: { ok: true, result } });
const fail = (status: number, description: string, retryAfter?: number): Answer => ({
  status,
  body: { ok: false, error_code: status, description, ...(retryAfter !== undefined ? { parameters: { retry_after: retryAfter } } : {}) },
});

export async function startFakeTelegram(options: FakeTelegramOptions): Promise<FakeTelegram> {
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const requests: FakeTelegramRequest[] = [];
  const sent: FakeSentMessage[] = [];
  const sentAnsweredAt: Array<number | null> = [];
  let sendPlan: ((params: Record<string, unknown>) => FakeSendDelay | undefined) | null = null;
  let sendsInFlight = 0;
  let queue: Record<string, unknown>[] = [];
  const faults = new Map<string, FakeFault[]>();
  const messageIds = new Map<string, number>();
  let nextUpdateId = 700_000_001;
  let allowedUpdates: string[] = [];
  let webhookUrl = '';
  let htmlRefused = false;
  let poll: Poll | null = null;
  const botId = Number(/^(\d+):/.exec(options.token)?.[1] ?? 1);
  const bot = { id: botId, is_bot: true, first_name: 'Iris', username: options.botUsername ?? 'iris_test_bot' };
  const changed = () => events.emit('change');

  const nextMessageId = (chatId: string) => {
    const id = (messageIds.get(chatId) ?? 0) + 1;
    messageIds.set(chatId, id);
    return id;
  };

  const isAllowed = (update: Record<string, unknown>) => {
    const type = Object.keys(update).find((key) => UPDATE_TYPES.includes(key));
    return allowedUpdates.length === 0 || type === undefined || allowedUpdates.includes(type);
  };

  /** Answers the waiting long poll, if any, with what is there now. */
  const wakePoll = () => {
    if (!poll) return;
    queue = queue.filter(isAllowed);
    if (queue.length === 0) return;
    const waiting = poll;
    poll = null;
    clearTimeout(waiting.timer);
    send(waiting.res, ok(queue.slice(0, waiting.limit)));
  };

  const push = (update: Record<string, unknown>): number => {
    const updateId = typeof update.update_id === 'number' ? update.update_id : nextUpdateId;
    nextUpdateId = Math.max(nextUpdateId, updateId) + 1;
    queue.push('update_id' in update ? update : { update_id: updateId, ...update });
    wakePoll();
    changed();
    return updateId;
  };

  function getUpdates(params: Record<string, unknown>, res: ServerResponse): Answer | null {
    if (webhookUrl !== '') return fail(409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first");
    const offset = toInt(params.offset);
    if (offset !== undefined && offset > 0) queue = queue.filter((update) => Number(update.update_id) >= offset);
    if (offset !== undefined && offset < 0) queue = queue.slice(offset);
    const allowed = toArray(params.allowed_updates);
    if (allowed !== undefined) allowedUpdates = allowed.map(String);
    queue = queue.filter(isAllowed);
    const limit = Math.min(100, Math.max(1, toInt(params.limit) ?? 100));
    const timeout = Math.max(0, toInt(params.timeout) ?? 0);
    if (poll) {
      const older = poll;
      poll = null;
      clearTimeout(older.timer);
      send(older.res, fail(409, 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running'));
    }
    if (queue.length > 0 || timeout === 0) return ok(queue.slice(0, limit));
    const waiting: Poll = {
      res,
      limit,
      timer: setTimeout(() => {
        if (poll === waiting) poll = null;
        send(res, ok([]));
      }, timeout * 1000),
    };
    poll = waiting;
    // A client that gives up (stop(), its own timeout) is no longer waiting.
    res.on('close', () => {
      if (poll === waiting) {
        poll = null;
        clearTimeout(waiting.timer);
      }
    });
    return null;
  }

  function sendMessage(params: Record<string, unknown>): Answer {
    const chat = chatOf(params.chat_id);
    if (!chat.ok) return chat.answer;
    const text = typeof params.text === 'string' ? params.text : typeof params.text === 'number' ? String(params.text) : '';
    const parseMode = typeof params.parse_mode === 'string' && params.parse_mode !== '' ? params.parse_mode : undefined;
    let visible = text;
    if (parseMode !== undefined) {
      if (!PARSE_MODES.includes(parseMode)) return fail(400, `Bad Request: unsupported parse_mode "${parseMode}"`);
      if (htmlRefused) return fail(400, "Bad Request: can't parse entities: Unsupported start tag \"refused\" at byte offset 0");
      if (parseMode === 'HTML') {
        const reading = readTelegramHtml(text);
        if (!reading.ok) return fail(400, reading.description);
        visible = reading.visible;
      }
    }
    if (visible.trim() === '') return fail(400, 'Bad Request: message text is empty');
    if (visible.length > MAX_TEXT) return fail(400, 'Bad Request: message is too long');
    const threadId = toInt(params.message_thread_id);
    const messageId = nextMessageId(chat.id);
    sent.push({ chat_id: chat.id, text, parse_mode: parseMode, message_thread_id: threadId, message_id: messageId });
    sentAnsweredAt.push(null);
    return ok({
      message_id: messageId,
      from: bot,
      chat: { id: Number(chat.id), type: Number(chat.id) < 0 ? 'supergroup' : 'private' },
      date: Math.floor(Date.now() / 1000),
      text: visible,
      ...(threadId !== undefined ? { message_thread_id: threadId, is_topic_message: true } : {}),
    });
  }

  function sendChatAction(params: Record<string, unknown>): Answer {
    const chat = chatOf(params.chat_id);
    if (!chat.ok) return chat.answer;
    if (typeof params.action !== 'string' || !CHAT_ACTIONS.includes(params.action)) {
      return fail(400, 'Bad Request: wrong parameter action in request');
    }
    return ok(true);
  }

  const methods: Record<string, (params: Record<string, unknown>, res: ServerResponse) => Answer | null> = {
    getme: () => ok(bot),
    getupdates: getUpdates,
    sendmessage: sendMessage,
    sendchataction: sendChatAction,
    setwebhook: (params) => {
      webhookUrl = typeof params.url === 'string' ? params.url : '';
      return ok(true);
    },
    deletewebhook: (params) => {
      webhookUrl = '';
      if (params.drop_pending_updates === true || params.drop_pending_updates === 'true') queue = [];
      return ok(true);
    },
    getwebhookinfo: () => ok({ url: webhookUrl, has_custom_certificate: false, pending_update_count: queue.length }),
  };

  const server = createServer((req, res) => {
    // A client that hangs up mid-body (an aborted poll) ends here; there is no one to answer.
    handle(req, res).catch(() => res.destroy());
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const route = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    const params = await readParams(req, url);
    const method = route?.[2] ?? url.pathname;
    requests.push({ method, params, at: Date.now() });
    changed();
    if (!route) return send(res, fail(404, 'Not Found'));
    if (route[1] !== options.token) return send(res, fail(401, 'Unauthorized'));
    const fault = faults.get(method.toLowerCase())?.shift();
    if (fault) {
      const description = fault.description ?? (fault.status === 429 ? `Too Many Requests: retry after ${fault.retryAfter ?? 1}` : 'Internal Server Error');
      return send(res, fail(fault.status, description, fault.retryAfter));
    }
    const run = methods[method.toLowerCase()];
    if (!run) return send(res, fail(404, 'Not Found'));
    if (method.toLowerCase() === 'sendmessage' && sendPlan) return slowSend(params, res, sendPlan(params) ?? {});
    const answer = run(params, res);
    if (answer) send(res, answer);
    if (method.toLowerCase() === 'sendmessage' && answer?.status === 200) sentAnsweredAt[sent.length - 1] = res.destroyed ? null : Date.now();
    changed();
  }

  async function slowSend(params: Record<string, unknown>, res: ServerResponse, delay: FakeSendDelay): Promise<void> {
    sendsInFlight++;
    let gone = false;
    res.once('close', () => (gone = true));
    changed();
    try {
      if (delay.beforeMs) await new Promise((resolve) => setTimeout(resolve, delay.beforeMs));
      // Gone before the request was taken: it never reached Telegram.
      if (gone) return;
      const answer = sendMessage(params);
      const index = answer.status === 200 ? sent.length - 1 : -1;
      changed();
      if (delay.afterMs) await new Promise((resolve) => setTimeout(resolve, delay.afterMs));
      const written = gone ? null : Date.now();
      send(res, answer);
      if (index >= 0) sentAnsweredAt[index] = written;
    } finally {
      sendsInFlight--;
      changed();
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const waitFor = (predicate: () => boolean, timeoutMs = 5000, what = 'condition') =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!predicate()) return;
        cleanup();
        resolve();
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`fake Telegram: timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        events.off('change', check);
      };
      events.on('change', check);
      check();
    });
  const calls = (method: string) => requests.filter((request) => request.method.toLowerCase() === method.toLowerCase());

  return {
    url: `http://127.0.0.1:${port}`,
    token: options.token,
    requests,
    sent,
    sentAnsweredAt,
    sendsInFlight: () => sendsInFlight,
    pending: () => [...queue],
    pushMessage: (message) => push({ message: buildMessage(message, nextMessageId(String(message.chatId))) }),
    pushRawUpdate: push,
    failNext(method, fault, times = 1) {
      const list = faults.get(method.toLowerCase()) ?? [];
      for (let i = 0; i < times; i++) list.push(fault);
      faults.set(method.toLowerCase(), list);
    },
    refuseHtml(on) {
      htmlRefused = on;
    },
    slowSends(plan) {
      sendPlan = plan;
    },
    calls,
    waitFor,
    async waitForSent(count, timeoutMs) {
      await waitFor(() => sent.length >= count, timeoutMs, `${count} sent message(s), have ${sent.length}`);
      return sent.slice(0, count);
    },
    async waitForCalls(method, count, timeoutMs) {
      await waitFor(() => calls(method).length >= count, timeoutMs, `${count} ${method} call(s)`);
      return calls(method).slice(0, count);
    },
    async close() {
      if (poll) {
        clearTimeout(poll.timer);
        poll.res.destroy();
        poll = null;
      }
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function buildMessage(push: FakePush, messageId: number): Record<string, unknown> {
  const chatType = push.chatType ?? 'private';
  const from = { id: Number(push.userId), is_bot: false, first_name: push.userName ?? 'Ada', ...(push.userName ? { username: push.userName } : {}) };
  const chat = chatType === 'private' ? { id: Number(push.chatId), type: chatType, first_name: from.first_name } : { id: Number(push.chatId), type: chatType, title: 'Test group', ...(push.threadId !== undefined ? { is_forum: true } : {}) };
  return {
    message_id: messageId,
    from,
    chat,
    date: push.date ?? Math.floor(Date.now() / 1000),
    text: push.text,
    ...(push.threadId !== undefined ? { message_thread_id: push.threadId, is_topic_message: true } : {}),
  };
}

type ChatCheck = { ok: true; id: string } | { ok: false; answer: Answer };

function chatOf(value: unknown): ChatCheck {
  if (value === undefined || value === '') return { ok: false, answer: fail(400, 'Bad Request: chat_id is empty') };
  const id = typeof value === 'number' || typeof value === 'string' ? String(value) : '';
  // Numeric ids (negative for groups) or @channelusername; the fake knows no usernames.
  if (!/^-?\d+$/.test(id)) return { ok: false, answer: fail(400, 'Bad Request: chat not found') };
  return { ok: true, id };
}

function send(res: ServerResponse, answer: Answer): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(answer.status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(answer.body));
}

async function readParams(req: IncomingMessage, url: URL): Promise<Record<string, unknown>> {
  const params: Record<string, unknown> = Object.fromEntries(url.searchParams);
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  if (raw === '') return params;
  const type = req.headers['content-type'] ?? '';
  if (type.includes('application/json')) {
    try {
      const body: unknown = JSON.parse(raw);
      if (body !== null && typeof body === 'object' && !Array.isArray(body)) Object.assign(params, body);
    } catch {
      // Telegram ignores a body it cannot read; the method then sees no parameters.
    }
  } else if (type.includes('application/x-www-form-urlencoded')) {
    Object.assign(params, Object.fromEntries(new URLSearchParams(raw)));
  }
  return params;
}

function toInt(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return Number(value);
  return undefined;
}

/** A JSON array, or its JSON text (as form and query fields carry it). */
function toArray(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value as unknown[];
  if (typeof value !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? (parsed as unknown[]) : undefined;
  } catch {
    return undefined;
  }
}
