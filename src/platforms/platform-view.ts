// What the dashboard's Platforms page shows of each chat platform: enabled or not, its settings
// (every secret only as `set` / `not set`), its connection as the running gateway reported it,
// who may talk to it (pending codes, approved users, owners) and its home channel. Pure: the
// config, environment, gateway view and pairing records come in, a JSON document goes out.
//
// Secrets never leave: values under secret-named keys anywhere in `extra` (isSecretKeyName, the
// policy `iris config show` follows) and the platform's .env variables become `set` / `not set`,
// and any other shown string that happens to contain one of those secret values (a token pasted
// into api_base) is scrubbed too, as is credential-shaped text in the gateway's own words.
import type { Env } from '../config/home.js';
import type { Config } from '../config/schema.js';
import { isSecretKeyName } from '../config/secrets-policy.js';
import { CHAT_PLATFORMS, type PlatformName } from '../domain/platforms.js';
import type { PlatformConnection } from './state-file.js';
import { REDACTED, redactText } from '../log/redact.js';
import type { ApprovedUser, PairingRequest } from '../store/platform-types.js';
import { configId } from './config-id.js';
import { TOKEN_ENV as DISCORD_TOKEN_ENV } from './discord/token.js';
import { APP_TOKEN_ENV as SLACK_APP_TOKEN_ENV, BOT_TOKEN_ENV as SLACK_BOT_TOKEN_ENV } from './slack/tokens.js';
import { ACCOUNT_SID_ENV, AUTH_TOKEN_ENV } from './sms/settings.js';
import { TOKEN_ENV as TELEGRAM_TOKEN_ENV } from './telegram/adapter.js';

/** Each platform's secrets in .env (docs/platforms.md); Signal has none (the daemon holds the account). */
export const PLATFORM_SECRET_ENV: Readonly<Record<PlatformName, readonly string[]>> = Object.freeze({
  telegram: [TELEGRAM_TOKEN_ENV],
  discord: [DISCORD_TOKEN_ENV],
  slack: [SLACK_BOT_TOKEN_ENV, SLACK_APP_TOKEN_ENV],
  signal: [],
  sms: [ACCOUNT_SID_ENV, AUTH_TOKEN_ENV],
});

export const SET = 'set';
export const NOT_SET = 'not set';

export type SettingRow = {
  /** `api_base`, `nested.key` for a setting in `extra`; the variable's name for one in .env. */
  readonly key: string;
  readonly source: 'config' | 'env';
  readonly secret: boolean;
  /** The value as text; `set` / `not set` for a secret. */
  readonly value: string;
};

export type ConnectionState = 'connected' | 'disconnected' | 'not_reported' | 'gateway_stopped' | 'disabled';

export type PlatformCard = {
  readonly name: PlatformName;
  readonly enabled: boolean;
  readonly connection: { readonly state: ConnectionState; readonly detail: string; readonly since: string | null };
  readonly settings: readonly SettingRow[];
  readonly owners: readonly string[];
  readonly allowed_users: readonly string[];
  readonly allow_all_users: boolean;
  /** null when none is set (/sethome in a chat, or platforms.<name>.extra.home_channel). */
  readonly home_channel: string | null;
  readonly pending: ReadonlyArray<{
    readonly code: string;
    readonly user_id: string;
    readonly user_name: string | null;
    readonly chat_id: string;
    readonly created_at: string;
    readonly expires_at: string;
    readonly age_seconds: number;
  }>;
  readonly approved: ReadonlyArray<{ readonly user_id: string; readonly user_name: string | null; readonly approved_at: string }>;
};

export type PlatformsDocument = {
  readonly gateway: { readonly running: boolean; readonly pid: number | null };
  readonly platforms: readonly PlatformCard[];
};

export type PlatformsInput = {
  readonly config: Readonly<Config>;
  readonly env: Env;
  /** The running gateway's pid and what it reported; `running: false` when it is not running. */
  readonly gateway: { readonly running: boolean; readonly pid: number | null; readonly platforms: readonly PlatformConnection[] };
  readonly pending: readonly PairingRequest[];
  readonly approved: readonly ApprovedUser[];
  readonly now: number;
};

/** Shown in the table as they are; owners and home_channel have places of their own on the card. */
const SHOWN_APART = new Set(['owners', 'home_channel', 'allowed_users', 'allow_all_users']);

type Section = { readonly enabled?: boolean; readonly extra?: Readonly<Record<string, unknown>> };

/** A setting's value as the table shows it: lists joined, anything else as JSON. */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(asText).join(', ');
  return value === undefined || value === null ? '' : JSON.stringify(value);
}

const present = (value: unknown) => asText(value).trim() !== '';

/** The rows of `extra`, nested mappings flattened to `a.b`; under a secret-named key (at any depth) only set / not set. */
export function settingRows(extra: Readonly<Record<string, unknown>>, prefix = '', secretAbove = false): { rows: SettingRow[]; secrets: string[] } {
  const rows: SettingRow[] = [];
  const secrets: string[] = [];
  for (const [key, value] of Object.entries(extra)) {
    if (prefix === '' && SHOWN_APART.has(key)) continue;
    const path = `${prefix}${key}`;
    const secret = secretAbove || isSecretKeyName(key);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const nested = settingRows(value as Record<string, unknown>, `${path}.`, secret);
      rows.push(...nested.rows);
      secrets.push(...nested.secrets);
    } else if (secret) {
      rows.push({ key: path, source: 'config', secret: true, value: present(value) ? SET : NOT_SET });
      secrets.push(...leafStrings(value));
    } else {
      rows.push({ key: path, source: 'config', secret: false, value: asText(value) });
    }
  }
  return { rows, secrets };
}

function leafStrings(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(leafStrings);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(leafStrings);
  return value === undefined || value === null ? [] : [asText(value).trim()];
}

/** `text` with every known secret value in it replaced, and credential-shaped text redacted. */
export function scrub(text: string, secrets: readonly string[]): string {
  // Short values (a "1", a "true") would blank out ordinary text; a real token is never that short.
  const known = secrets.filter((s) => s.length >= 6).sort((a, b) => b.length - a.length);
  return redactText(known.reduce((out, secret) => out.split(secret).join(REDACTED), text));
}

function connectionOf(name: PlatformName, enabled: boolean, gateway: PlatformsInput['gateway']): PlatformCard['connection'] {
  if (!enabled) return { state: 'disabled', detail: `not enabled (iris config set platforms.${name}.enabled true)`, since: null };
  if (!gateway.running) return { state: 'gateway_stopped', detail: 'the gateway is not running (iris gateway start)', since: null };
  const reported = gateway.platforms.find((p) => p.name === name);
  if (!reported || reported.since === null) return { state: 'not_reported', detail: reported?.detail ?? 'not reported by the gateway', since: null };
  return { state: reported.connected ? 'connected' : 'disconnected', detail: reported.detail, since: reported.since };
}

const ids = (name: PlatformName, list: readonly unknown[]) => list.map((id) => configId(name, id as string | number));

function sectionOf(name: PlatformName, config: Readonly<Config>): Section {
  return (config.platforms as Readonly<Record<string, Section | undefined>>)[name] ?? {};
}

const envSecrets = (name: PlatformName, env: Env) => PLATFORM_SECRET_ENV[name].map((variable) => (env[variable] ?? '').trim());

/** Every secret value of every platform: one pasted into another platform's setting is hidden there too. */
export function allPlatformSecrets(config: Readonly<Config>, env: Env): string[] {
  return CHAT_PLATFORMS.flatMap((name) => [...settingRows(sectionOf(name, config).extra ?? {}).secrets, ...envSecrets(name, env)]);
}

export function platformCard(name: PlatformName, input: PlatformsInput, secrets: readonly string[] = allPlatformSecrets(input.config, input.env)): PlatformCard {
  const section = sectionOf(name, input.config);
  const extra = section.extra ?? {};
  const enabled = section.enabled === true;
  const fromConfig = settingRows(extra);
  const envValues = envSecrets(name, input.env);
  const envRows: SettingRow[] = PLATFORM_SECRET_ENV[name].map((variable, i) => ({ key: variable, source: 'env', secret: true, value: envValues[i] === '' ? NOT_SET : SET }));
  const clean = (text: string) => scrub(text, secrets);
  const home = configId(name, (extra.home_channel as string | number | undefined) ?? '').trim();
  const connection = connectionOf(name, enabled, input.gateway);
  return {
    name,
    enabled,
    connection: { ...connection, detail: clean(connection.detail) },
    settings: [...fromConfig.rows.map((row) => (row.secret ? row : { ...row, value: clean(row.value) })), ...envRows],
    owners: ids(name, (extra.owners as unknown[] | undefined) ?? []).map(clean),
    allowed_users: ids(name, (extra.allowed_users as unknown[] | undefined) ?? []).map(clean),
    allow_all_users: extra.allow_all_users === true,
    home_channel: home === '' ? null : clean(home),
    pending: input.pending
      .filter((r) => r.platform === name)
      .map((r) => ({
        code: r.code,
        user_id: r.userId,
        user_name: r.userName,
        chat_id: r.chatId,
        created_at: new Date(r.createdAt).toISOString(),
        expires_at: new Date(r.expiresAt).toISOString(),
        age_seconds: Math.max(0, Math.floor((input.now - r.createdAt) / 1000)),
      })),
    approved: input.approved.filter((u) => u.platform === name).map((u) => ({ user_id: u.userId, user_name: u.userName, approved_at: new Date(u.approvedAt).toISOString() })),
  };
}

export function platformsDocument(input: PlatformsInput): PlatformsDocument {
  const secrets = allPlatformSecrets(input.config, input.env);
  return { gateway: { running: input.gateway.running, pid: input.gateway.pid }, platforms: CHAT_PLATFORMS.map((name) => platformCard(name, input, secrets)) };
}
