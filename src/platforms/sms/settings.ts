// What the SMS adapter needs, gathered from `platforms.sms.extra` and the environment, and which
// of it is missing for each job. Pure. The secrets are carried here and nowhere else: callers say
// a setting is missing by its name, never by its value.
import type { Env } from '../../config/home.js';
import type { SmsConfig } from '../../config/schema.js';

export type SmsSettings = Readonly<{
  apiBase: string;
  /** The Twilio number answers go out from, E.164. */
  from: string;
  /** The URL Twilio posts to and signs. */
  publicUrl: string;
  accountSid: string;
  authToken: string;
}>;

export const ACCOUNT_SID_ENV = 'TWILIO_ACCOUNT_SID';
export const AUTH_TOKEN_ENV = 'TWILIO_AUTH_TOKEN';
const FROM_SETTING = 'platforms.sms.extra.from';
const PUBLIC_URL_SETTING = 'platforms.sms.extra.public_url';

/** Receiving needs the account and the signing key and URL; sending needs the account and a number. */
export type SmsJob = 'receive' | 'send' | 'all';

export function readSmsSettings(extra: SmsConfig['extra'], env: Env): SmsSettings {
  return Object.freeze({
    apiBase: extra.api_base.replace(/\/+$/, ''),
    from: extra.from.trim(),
    publicUrl: extra.public_url.trim(),
    // .env values pasted with a trailing space or newline would never authenticate.
    accountSid: (env[ACCOUNT_SID_ENV] ?? '').trim(),
    authToken: (env[AUTH_TOKEN_ENV] ?? '').trim(),
  });
}

/** The names (env variables, config keys) of what `job` needs and does not have, in a fixed order. */
export function missingFor(settings: SmsSettings, job: SmsJob): string[] {
  const missing: string[] = [];
  if (settings.accountSid === '') missing.push(ACCOUNT_SID_ENV);
  if (settings.authToken === '') missing.push(AUTH_TOKEN_ENV);
  if (job !== 'receive' && settings.from === '') missing.push(FROM_SETTING);
  if (job !== 'send' && settings.publicUrl === '') missing.push(PUBLIC_URL_SETTING);
  return missing;
}
