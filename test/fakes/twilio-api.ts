// A fake Twilio for tests and the demo: a real HTTP server on 127.0.0.1 (port 0) that speaks the
// two REST calls Iris makes (Messages.json create, Account fetch) with Twilio's status codes and
// error bodies, records every request, and takes injected faults; plus `postInboundSms`, which
// plays Twilio's inbound-message webhook (form-encoded, Twilio's parameter set, X-Twilio-Signature).
// Facts used: Twilio error bodies are {code, message, more_info, status}; 20003 Authenticate (401),
// 20404 not found, 21602 body required, 21604 'To' required, 21617 body over 1600 characters,
// 20429 Too Many Requests with Retry-After; a created message is a 201 with an `SM` + 32 hex sid.
import { createHmac, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type TwilioFault = { status: number; code: number; message: string; retryAfter?: number };

export type TwilioRequest = {
  method: string;
  path: string;
  /** Basic auth named this account with its token. */
  authOk: boolean;
  /** The form body's parameters (first value of each name). */
  params: Record<string, string>;
  headers: Record<string, string>;
  rawBody: string;
};

export type TwilioSentMessage = { to: string; from: string; body: string; sid: string };

export type FakeTwilio = {
  /** The `api_base` to configure. */
  url: string;
  accountSid: string;
  requests: TwilioRequest[];
  /** Messages accepted (201) in order. */
  sent: TwilioSentMessage[];
  /** The next `times` API requests are answered with this error instead. */
  failNext(fault: TwilioFault, times?: number): void;
  /** Resolves once `n` messages have been accepted; rejects after `timeoutMs`. */
  waitForSent(n: number, timeoutMs?: number): Promise<TwilioSentMessage[]>;
  close(): Promise<void>;
};

const API = '/2010-04-01';
const MESSAGES_PATH = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/;
const ACCOUNT_PATH = /^\/2010-04-01\/Accounts\/([^/]+)\.json$/;
export const TWILIO_BODY_LIMIT = 1600;

export function twilioSid(prefix: 'SM' | 'AC'): string {
  return prefix + randomBytes(16).toString('hex');
}

function errorBody(status: number, code: number, message: string) {
  return { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

function readAll(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function headerRecord(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function basicAuthOk(header: string | undefined, accountSid: string, authToken: string): boolean {
  const match = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!match) return false;
  return Buffer.from(match[1]!, 'base64').toString('utf8') === `${accountSid}:${authToken}`;
}

function rfc2822(ms: number): string {
  return new Date(ms).toUTCString().replace('GMT', '+0000');
}

export async function startFakeTwilio(options: { accountSid: string; authToken: string }): Promise<FakeTwilio> {
  const { accountSid, authToken } = options;
  const requests: TwilioRequest[] = [];
  const sent: TwilioSentMessage[] = [];
  const faults: TwilioFault[] = [];
  const events = new EventEmitter();

  function messageResource(message: TwilioSentMessage) {
    const now = rfc2822(Date.now());
    const uri = `${API}/Accounts/${accountSid}/Messages/${message.sid}.json`;
    return {
      sid: message.sid,
      account_sid: accountSid,
      to: message.to,
      from: message.from,
      body: message.body,
      status: 'queued',
      direction: 'outbound-api',
      num_segments: String(Math.max(1, Math.ceil(message.body.length / 153))),
      num_media: '0',
      api_version: '2010-04-01',
      messaging_service_sid: null,
      date_created: now,
      date_updated: now,
      date_sent: null,
      price: null,
      price_unit: 'USD',
      error_code: null,
      error_message: null,
      uri,
      subresource_uris: { media: uri.replace(/\.json$/, '/Media.json') },
    };
  }

  function createMessage(res: ServerResponse, params: Record<string, string>): void {
    const to = params.To ?? '';
    const from = params.From ?? '';
    const body = params.Body ?? '';
    if (to === '') return sendJson(res, 400, errorBody(400, 21604, "A 'To' phone number is required."));
    if (from === '') return sendJson(res, 400, errorBody(400, 21603, "A 'From' phone number is required."));
    if (body === '') return sendJson(res, 400, errorBody(400, 21602, 'Message body is required.'));
    if (body.length > TWILIO_BODY_LIMIT) {
      return sendJson(res, 400, errorBody(400, 21617, 'The concatenated message body exceeds the 1600 character limit.'));
    }
    const message: TwilioSentMessage = { to, from, body, sid: twilioSid('SM') };
    sent.push(message);
    sendJson(res, 201, messageResource(message));
    events.emit('sent');
  }

  function accountResource() {
    const created = rfc2822(Date.UTC(2026, 0, 1));
    return {
      sid: accountSid,
      owner_account_sid: accountSid,
      friendly_name: 'Iris test account',
      status: 'active',
      type: 'Full',
      date_created: created,
      date_updated: created,
      uri: `${API}/Accounts/${accountSid}.json`,
    };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawBody = await readAll(req);
    const path = (req.url ?? '/').split('?', 1)[0]!;
    const form = new URLSearchParams(rawBody);
    const params: Record<string, string> = {};
    for (const [name, value] of form) if (!(name in params)) params[name] = value;
    const authOk = basicAuthOk(req.headers.authorization, accountSid, authToken);
    requests.push({ method: req.method ?? '', path, authOk, params, headers: headerRecord(req), rawBody });

    const fault = faults.shift();
    if (fault) {
      const headers: Record<string, string> = fault.retryAfter === undefined ? {} : { 'retry-after': String(fault.retryAfter) };
      return sendJson(res, fault.status, errorBody(fault.status, fault.code, fault.message), headers);
    }
    const messages = MESSAGES_PATH.exec(path);
    const account = messages ? null : ACCOUNT_PATH.exec(path);
    if (!messages && !account) return sendJson(res, 404, errorBody(404, 20404, `The requested resource ${path} was not found`));
    // Twilio authenticates before it looks at the resource.
    if (!authOk) {
      return sendJson(res, 401, { ...errorBody(401, 20003, 'Authenticate'), detail: 'Your AccountSid or AuthToken was incorrect.' }, {
        'www-authenticate': 'Basic realm="Twilio API"',
      });
    }
    const pathSid = decodeURIComponent((messages ?? account)![1]!);
    if (pathSid !== accountSid) return sendJson(res, 404, errorBody(404, 20404, `The requested resource ${path} was not found`));
    if (messages) {
      if (req.method !== 'POST') return sendJson(res, 405, errorBody(405, 20004, 'Method not allowed'));
      return createMessage(res, params);
    }
    if (req.method !== 'GET') return sendJson(res, 405, errorBody(405, 20004, 'Method not allowed'));
    sendJson(res, 200, accountResource());
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, errorBody(500, 20500, 'Internal Server Error'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    accountSid,
    requests,
    sent,
    failNext(fault, times = 1) {
      for (let i = 0; i < times; i++) faults.push(fault);
    },
    waitForSent(n, timeoutMs = 5000) {
      if (sent.length >= n) return Promise.resolve(sent.slice());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          events.off('sent', onSent);
          reject(new Error(`fake Twilio: ${sent.length} of ${n} messages sent after ${timeoutMs} ms`));
        }, timeoutMs);
        const onSent = () => {
          if (sent.length < n) return;
          clearTimeout(timer);
          events.off('sent', onSent);
          resolve(sent.slice());
        };
        events.on('sent', onSent);
      });
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

// ---- Twilio's side of the inbound webhook ----

export type InboundSmsOptions = {
  /** Where to POST (the gateway's /platforms/sms). */
  url: string;
  authToken: string;
  accountSid: string;
  from: string;
  to: string;
  body: string;
  messageSid?: string;
  /** The URL the signature is made over (Twilio signs the URL it was configured with); default `url`. */
  signatureUrl?: string;
  /** Send a signature made with a wrong key. */
  badSignature?: boolean;
  /** Send no X-Twilio-Signature at all. */
  omitSignature?: boolean;
  /** Parameters to leave out (signed without them), e.g. ['From']. */
  omit?: string[];
};

export type InboundSmsAnswer = { status: number; headers: Record<string, string>; body: string };

/** Twilio's HMAC-SHA1 over URL + sorted name+value pairs, base64 (written out again so the fake does not trust the code under test). */
function signForTwilio(authToken: string, url: string, params: Array<[string, string]>): string {
  const sorted = [...params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHmac('sha1', authToken)
    .update(url + sorted.map(([name, value]) => name + value).join(''))
    .digest('base64');
}

/** The parameters Twilio posts for one inbound SMS without media, in the order it sends them. */
export function inboundSmsParams(options: Pick<InboundSmsOptions, 'accountSid' | 'from' | 'to' | 'body' | 'messageSid'>): Array<[string, string]> {
  const sid = options.messageSid ?? twilioSid('SM');
  return [
    ['ToCountry', 'US'],
    ['ToState', 'CA'],
    ['SmsMessageSid', sid],
    ['NumMedia', '0'],
    ['ToCity', ''],
    ['FromZip', ''],
    ['SmsSid', sid],
    ['FromState', ''],
    ['SmsStatus', 'received'],
    ['FromCity', ''],
    ['Body', options.body],
    ['FromCountry', 'US'],
    ['To', options.to],
    ['ToZip', ''],
    ['NumSegments', '1'],
    ['MessageSid', sid],
    ['AccountSid', options.accountSid],
    ['From', options.from],
    ['ApiVersion', '2010-04-01'],
  ];
}

export async function postInboundSms(options: InboundSmsOptions): Promise<InboundSmsAnswer> {
  const omit = new Set(options.omit ?? []);
  const params = inboundSmsParams(options).filter(([name]) => !omit.has(name));
  const key = options.badSignature ? `${options.authToken}-wrong` : options.authToken;
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
    'user-agent': 'TwilioProxy/1.1',
  };
  if (!options.omitSignature) headers['x-twilio-signature'] = signForTwilio(key, options.signatureUrl ?? options.url, params);
  const response = await fetch(options.url, { method: 'POST', headers, body: new URLSearchParams(params).toString() });
  const answerHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    answerHeaders[name] = value;
  });
  return { status: response.status, headers: answerHeaders, body: await response.text() };
}
