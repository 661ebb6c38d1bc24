// The handler for Twilio's inbound-message webhook (`POST /platforms/sms`, routed here by the
// gateway). Order: method → content type → settings → size and time → signature → fields →
// durable write → 200 empty TwiML. Nothing is stored before the signature is checked, and Twilio
// gets its 200 only once the sink has stored the message: any other answer makes Twilio report a
// failed webhook, and nothing it sent was acknowledged.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorMessage } from '../../domain/error-message.js';
import { declaredTooLarge, readBody, TOO_LARGE } from '../../http/read-body.js';
import { sendJson } from '../../http/send-json.js';
import type { InboundSink, PlatformLog } from '../types.js';
import { parseInboundSms } from './inbound.js';
import { missingFor, type SmsSettings } from './settings.js';
import { verifyTwilioSignature } from './signature.js';
import { sendEmptyTwiml } from './twiml.js';

export const SMS_PATH = '/platforms/sms';
/** Twilio's parameters come to a few hundred bytes plus a 1600-character body; 64 KiB is plenty. */
export const SMS_MAX_BODY_BYTES = 64 * 1024;
export const SMS_BODY_TIMEOUT_MS = 30_000;
const FORM_TYPE = 'application/x-www-form-urlencoded';

export type SmsInboundDeps = Readonly<{
  settings: SmsSettings;
  log: PlatformLog;
  nowMs: () => number;
  maxBodyBytes?: number;
  bodyTimeoutMs?: number;
}>;

export type SmsInboundHandler = (req: IncomingMessage, res: ServerResponse, sink: InboundSink) => Promise<void>;

/** A refusal sent before the body is read (or while it still streams): the connection closes. */
function refuseUnread(res: ServerResponse, status: number, error: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { error }, { connection: 'close', ...headers });
}

function isForm(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase() === FORM_TYPE;
}

export function createSmsInboundHandler(deps: SmsInboundDeps): SmsInboundHandler {
  const maxBodyBytes = deps.maxBodyBytes ?? SMS_MAX_BODY_BYTES;
  const bodyTimeoutMs = deps.bodyTimeoutMs ?? SMS_BODY_TIMEOUT_MS;
  const { settings, log } = deps;

  async function receive(req: IncomingMessage, res: ServerResponse, sink: InboundSink): Promise<void> {
    if (req.method !== 'POST') return refuseUnread(res, 405, 'Method not allowed', { allow: 'POST' });
    if (!isForm(req.headers['content-type'])) return refuseUnread(res, 415, `Content-Type must be ${FORM_TYPE}`);
    // Without the token and the URL Twilio signed, no request can be verified: refuse every one,
    // loudly, rather than accept unsigned messages. 503: Twilio may retry once it is fixed.
    const missing = missingFor(settings, 'receive');
    if (missing.length > 0) {
      log.error({ platform: 'sms', missing }, `SMS inbound refused: not configured (missing ${missing.join(', ')})`);
      return refuseUnread(res, 503, 'SMS is not configured');
    }
    if (declaredTooLarge(req, maxBodyBytes)) return refuseUnread(res, 413, TOO_LARGE);
    const read = await readBody(req, maxBodyBytes, bodyTimeoutMs);
    if (!read.ok) {
      if (!read.clientGone) log.warn({ platform: 'sms', status: read.status, remote: req.socket.remoteAddress }, `SMS inbound body refused: ${read.error}`);
      return refuseUnread(res, read.status, read.error);
    }

    const form = new URLSearchParams(read.body.toString('utf8'));
    const header = req.headers['x-twilio-signature'];
    const signature = Array.isArray(header) ? header[0] : header;
    const verified = verifyTwilioSignature(settings.authToken, settings.publicUrl, [...form.entries()], signature);
    if (!verified.ok) {
      log.warn({ platform: 'sms', reason: verified.reason, remote: req.socket.remoteAddress }, 'SMS inbound signature refused');
      return sendJson(res, 403, { error: 'Invalid signature' });
    }

    const parsed = parseInboundSms((name) => form.get(name), settings.accountSid, deps.nowMs());
    if (!parsed.ok) {
      log.warn({ platform: 'sms', code: parsed.code, reason: parsed.reason }, 'SMS inbound refused');
      return sendJson(res, parsed.code === 'malformed' ? 400 : 403, { error: parsed.reason });
    }

    try {
      await sink(parsed.message);
    } catch (err) {
      log.error({ platform: 'sms', message_id: parsed.message.messageId, err: errorMessage(err) }, 'SMS inbound not stored; Twilio was not acknowledged');
      return sendJson(res, 503, { error: 'Storage unavailable' });
    }
    sendEmptyTwiml(res);
  }

  return async (req, res, sink) => {
    try {
      await receive(req, res, sink);
    } catch (err) {
      // A bug, not an expected failure: answer it as one (no stack on the wire), keep serving.
      log.error({ platform: 'sms', err: err instanceof Error ? err.stack : String(err) }, 'SMS inbound handler failed');
      sendJson(res, 500, { error: 'Internal error' });
    }
  };
}
