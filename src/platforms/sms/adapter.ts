// SMS over Twilio as a PlatformAdapter. Inbound comes over the gateway's listener (`http`), so
// start() has nothing to open; outbound is one Messages API call per (already split) message.
// The adapter remembers one thing: whether Twilio last rejected the credentials, so that
// `iris gateway status` can say so instead of "connected".
import type { Env } from '../../config/home.js';
import type { SmsConfig } from '../../config/schema.js';
import { markdownToPlainText } from '../plain-text.js';
import type { ConnectionState, PlatformAdapter, PlatformCheck, PlatformLog, SendResult } from '../types.js';
import { createSmsInboundHandler, SMS_PATH } from './http-inbound.js';
import { createMessagesApi, type ApiOutcome } from './messages-api.js';
import { classifySend, twilioErrorText } from './send-result.js';
import { missingFor, readSmsSettings } from './settings.js';

export type SmsAdapterOptions = {
  readonly extra: SmsConfig['extra'];
  readonly env: Env;
  readonly log: PlatformLog;
  readonly fetch?: typeof fetch;
  readonly nowMs?: () => number;
};

export const SEND_TIMEOUT_MS = 15_000;
export const CHECK_TIMEOUT_MS = 10_000;
const REJECTED = 'Twilio rejected the credentials (TWILIO_ACCOUNT_SID / TWILIO_AUTH_TOKEN)';

/** What a credentials check's outcome means. Pure. */
export function checkResult(outcome: ApiOutcome): PlatformCheck {
  if (outcome.kind === 'failed') return { ok: false, reason: outcome.reason, cause: 'unreachable' };
  if (outcome.status === 401) return { ok: false, reason: REJECTED, cause: 'credentials' };
  if (outcome.status !== 200) {
    const detail = twilioErrorText(outcome.body);
    return { ok: false, reason: `Twilio answered ${outcome.status}${detail === null ? '' : `: ${detail}`}` };
  }
  const account = typeof outcome.body === 'object' && outcome.body !== null ? (outcome.body as Record<string, unknown>) : {};
  const status = typeof account.status === 'string' ? account.status : 'unknown';
  // A suspended or closed account authenticates but cannot send.
  if (status !== 'active') return { ok: false, reason: `the Twilio account is ${status}` };
  const name = typeof account.friendly_name === 'string' ? ` "${account.friendly_name.slice(0, 80)}"` : '';
  return { ok: true, detail: `Twilio account${name} is active` };
}

export function createSmsAdapter(options: SmsAdapterOptions): PlatformAdapter {
  const settings = readSmsSettings(options.extra, options.env);
  const nowMs = options.nowMs ?? Date.now;
  const credentials = { accountSid: settings.accountSid, authToken: settings.authToken };
  const api = (timeoutMs: number) =>
    createMessagesApi({ apiBase: settings.apiBase, credentials, fetch: options.fetch, timeoutMs });
  const sendApi = api(SEND_TIMEOUT_MS);
  const checkApi = api(CHECK_TIMEOUT_MS);
  const handle = createSmsInboundHandler({ settings, log: options.log, nowMs });

  let credentialsRejected = false;
  /** Any answer from Twilio says whether the credentials are good; a network failure says nothing. */
  const noteCredentials = (outcome: ApiOutcome): void => {
    if (outcome.kind !== 'answer') return;
    if (outcome.status === 401) {
      if (!credentialsRejected) options.log.error({ platform: 'sms' }, REJECTED);
      credentialsRejected = true;
    } else if (outcome.status < 400) {
      credentialsRejected = false;
    }
  };

  return {
    name: 'sms',
    async start() {
      // Inbound arrives over the gateway's listener; there is no connection to open.
      const missing = missingFor(settings, 'all');
      if (missing.length > 0) options.log.warn({ platform: 'sms', missing }, `SMS is missing ${missing.join(', ')}`);
    },
    prepare: markdownToPlainText,
    async send(message, signal): Promise<SendResult> {
      const missing = missingFor(settings, 'send');
      // Not configured yet: a retry might find it fixed only after a restart, but retrying is
      // harmless and dropping the answer is not.
      if (missing.length > 0) return { ok: false, kind: 'retry', reason: `SMS is not configured (missing ${missing.join(', ')})` };
      const outcome = await sendApi.sendMessage({ to: message.chatId, from: settings.from, body: message.text }, signal);
      noteCredentials(outcome);
      const result = classifySend(outcome);
      if (!result.ok && outcome.kind === 'answer' && outcome.status === 401) return { ...result, reason: `${REJECTED}: ${result.reason}` };
      return result;
    },
    state(): ConnectionState {
      const missing = missingFor(settings, 'all');
      if (missing.length > 0) return { connected: false, detail: `not configured: missing ${missing.join(', ')}` };
      if (credentialsRejected) return { connected: false, detail: REJECTED };
      return { connected: true, detail: `sending from ${settings.from}; Twilio posts to ${settings.publicUrl}` };
    },
    async check(signal): Promise<PlatformCheck> {
      const missing = missingFor(settings, 'all');
      if (missing.length > 0) return { ok: false, reason: `not configured: missing ${missing.join(', ')}` };
      const outcome = await checkApi.fetchAccount(signal);
      noteCredentials(outcome);
      return checkResult(outcome);
    },
    async stop() {
      // Nothing to close: in-flight webhooks finish on the gateway's listener.
    },
    http: { path: SMS_PATH, handle },
  };
}
