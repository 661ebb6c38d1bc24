// Each enabled chat platform (docs/platforms.md): its secrets and required settings are there
// (named, never shown), who may talk to it (allow_all_users is a warning), who owns it (none is a
// warning: the owner-only chat commands cannot be used), and — unless --offline
// — whether the service answers with those credentials (the adapter's own check()). Pure: the
// settings come in as a `PlatformSetup`, the probe's result as a value.
import type { Env } from '../../config/home.js';
import type { Config } from '../../config/schema.js';
import type { PlatformName } from '../../domain/platforms.js';
import { TOKEN_ENV as DISCORD_TOKEN_ENV } from '../../platforms/discord/token.js';
import { missingFor, readSmsSettings } from '../../platforms/sms/settings.js';
import { APP_TOKEN_ENV as SLACK_APP_TOKEN_ENV, BOT_TOKEN_ENV as SLACK_BOT_TOKEN_ENV } from '../../platforms/slack/tokens.js';
import { TOKEN_ENV as TELEGRAM_TOKEN_ENV } from '../../platforms/telegram/adapter.js';
import type { PlatformCheck, PlatformCheckCause } from '../../platforms/types.js';
import { fail, ok, plural, warn, type CheckResult } from '../types.js';

/** How long the doctor waits for one platform's check() (each adapter has its own, shorter, too). */
export const PLATFORM_PROBE_TIMEOUT_MS = 15_000;

export type PlatformSetup = {
  readonly name: PlatformName;
  /** This build has an adapter for it. */
  readonly runnable: boolean;
  /** Secrets (variable names) and settings (config keys) it cannot run without, in a fixed order. */
  readonly missing: readonly string[];
  /** Settings it runs without, but probably should not (signal: account). */
  readonly advised: readonly string[];
  /** What it is set up as, for the finding when nothing is missing: `daemon at …`. */
  readonly summary: string;
  readonly allowAllUsers: boolean;
  readonly allowedUsers: number;
  /** How many ids `owners` lists. */
  readonly owners: number;
  readonly homeChannel: string;
};

type ChatExtra = { readonly allowed_users: readonly unknown[]; readonly owners: readonly unknown[]; readonly allow_all_users: boolean; readonly home_channel: string | number };

const setting = (name: PlatformName, key: string) => `platforms.${name}.extra.${key}`;
const present = (value: string | undefined) => (value ?? '').trim() !== '';

function common(name: PlatformName, extra: ChatExtra): Pick<PlatformSetup, 'name' | 'allowAllUsers' | 'allowedUsers' | 'owners' | 'homeChannel'> {
  return { name, allowAllUsers: extra.allow_all_users, allowedUsers: extra.allowed_users.length, owners: extra.owners.length, homeChannel: String(extra.home_channel).trim() };
}

/** What one enabled platform has and lacks, from config.yaml and the environment (.env first). */
export function readPlatformSetup(name: PlatformName, config: Readonly<Config>, env: Env, runnable: boolean): PlatformSetup {
  const { telegram, discord, slack, signal, sms } = config.platforms;
  switch (name) {
    case 'telegram':
      return {
        ...common(name, telegram.extra),
        runnable,
        missing: present(env[TELEGRAM_TOKEN_ENV]) ? [] : [TELEGRAM_TOKEN_ENV],
        advised: [],
        summary: `${TELEGRAM_TOKEN_ENV} is set; Bot API at ${telegram.extra.api_base}`,
      };
    case 'slack':
      return {
        ...common(name, slack.extra),
        runnable,
        missing: [SLACK_BOT_TOKEN_ENV, SLACK_APP_TOKEN_ENV].filter((variable) => !present(env[variable])),
        advised: [],
        summary: `${SLACK_BOT_TOKEN_ENV} and ${SLACK_APP_TOKEN_ENV} are set; Web API at ${slack.extra.api_base}, Socket Mode`,
      };
    case 'discord':
      return {
        ...common(name, discord.extra),
        runnable,
        missing: present(env[DISCORD_TOKEN_ENV]) ? [] : [DISCORD_TOKEN_ENV],
        advised: [],
        summary: `${DISCORD_TOKEN_ENV} is set; API at ${discord.extra.api_base}`,
      };
    case 'signal': {
      const { http_url: url, account } = signal.extra;
      return {
        ...common(name, signal.extra),
        runnable,
        missing: present(url) ? [] : [setting(name, 'http_url')],
        advised: present(account) ? [] : [setting(name, 'account')],
        summary: `signal-cli daemon at ${url.trim()}${present(account) ? `, account ${account.trim()}` : ''}`,
      };
    }
    case 'sms': {
      const settings = readSmsSettings(sms.extra, env);
      return {
        ...common(name, sms.extra),
        runnable,
        missing: missingFor(settings, 'all'),
        advised: [],
        summary: `TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN are set; sends from ${settings.from}; Twilio posts to ${settings.publicUrl}`,
      };
    }
    default:
      return { name, runnable, missing: [], advised: [], summary: '', allowAllUsers: false, allowedUsers: 0, owners: 0, homeChannel: '' };
  }
}

/** What the probe of each platform asks, in words, for the doctor's "checking …" line. */
export function platformProbeDescription(name: PlatformName, config: Readonly<Config>): string {
  switch (name) {
    case 'telegram':
      return `telegram: getMe at ${config.platforms.telegram.extra.api_base}`;
    case 'slack':
      return `slack: auth.test and apps.connections.open at ${config.platforms.slack.extra.api_base}`;
    case 'discord':
      return `discord: GET /users/@me at ${config.platforms.discord.extra.api_base}`;
    case 'signal':
      return `signal: GET ${config.platforms.signal.extra.http_url.trim().replace(/\/+$/, '')}/api/v1/check`;
    case 'sms':
      return `sms: the Twilio account at ${config.platforms.sms.extra.api_base}`;
  }
}

/** `iris config set X <value>` for each missing name (variables go to .env, keys to config.yaml). */
function setCommands(names: readonly string[]): string {
  return names.map((n) => `iris config set ${n} <${n.startsWith('platforms.') ? 'value' : 'secret'}>`).join('; ');
}

/** The settings and secrets: `platform:<name>`. */
export function checkPlatformSetup(setup: PlatformSetup): CheckResult {
  const { name } = setup;
  const id = `platform:${name}`;
  if (!setup.runnable) {
    return fail(id, name, `${name} is enabled, but it is not available in this version of Iris`, `iris config set platforms.${name}.enabled false`);
  }
  if (setup.missing.length > 0) {
    return fail(id, name, `enabled, but ${setup.missing.join(', ')} ${plural(setup.missing.length, 'is', 'are')} not set`, `${setCommands(setup.missing)} (docs/platforms.md)`);
  }
  const home = setup.homeChannel === '' ? 'no home_channel (/sethome in a chat sets it)' : `home_channel ${setup.homeChannel}`;
  const finding = `${setup.summary}; ${home}`;
  if (setup.advised.length > 0) {
    return warn(
      id,
      name,
      `${finding}; ${setup.advised.join(', ')} is not set: only a daemon started for one account (signal-cli -a <number> daemon) can serve it`,
      `${setCommands(setup.advised)} (the bot's number, +15551234567)`,
    );
  }
  return ok(id, name, finding);
}

/** Who may talk to it: `platform_access:<name>`; undefined for a platform this build cannot run. */
export function checkPlatformAccess(setup: PlatformSetup): CheckResult | undefined {
  if (!setup.runnable) return undefined;
  const { name } = setup;
  const id = `platform_access:${name}`;
  const label = `${name} access`;
  if (setup.allowAllUsers) {
    return warn(
      id,
      label,
      'allow_all_users is true: anyone who finds the bot can use the agent (and its tools)',
      `iris config set platforms.${name}.extra.allow_all_users false, and list the users in platforms.${name}.extra.allowed_users (or approve them: iris pairing approve ${name} <code>)`,
    );
  }
  const users = setup.allowedUsers === 0 ? 'no users in allowed_users' : `${setup.allowedUsers} ${plural(setup.allowedUsers, 'user')} in allowed_users`;
  return ok(id, label, `${users}, plus those approved with iris pairing approve; anyone else gets a pairing code in a direct message`);
}

/** Who may run /sethome, /model --global and /approve from a chat: `platform_owners:<name>`; undefined for a platform this build cannot run. */
export function checkPlatformOwners(setup: PlatformSetup): CheckResult | undefined {
  if (!setup.runnable) return undefined;
  const { name } = setup;
  const id = `platform_owners:${name}`;
  const label = `${name} owners`;
  if (setup.owners === 0) {
    return warn(
      id,
      label,
      `platforms.${name} has no owners: /sethome, /model --global and /approve cannot be used from a chat`,
      `set platforms.${name}.extra.owners in config.yaml to the ${name} user ids that may use them (a list, like allowed_users; docs/platforms.md)`,
    );
  }
  return ok(id, label, `${setup.owners} ${plural(setup.owners, 'owner')}: /sethome, /model --global and /approve work from their chats`);
}

const CREDENTIAL_FIXES: Partial<Record<PlatformName, string>> = {
  telegram: `get the bot's current token from @BotFather (/token) and set it: iris config set ${TELEGRAM_TOKEN_ENV} <token>`,
  slack: `copy the Bot User OAuth Token (xoxb-, OAuth & Permissions) and an app-level token with connections:write (xapp-, Basic Information → App-Level Tokens) and set them: iris config set ${SLACK_BOT_TOKEN_ENV} <token>; iris config set ${SLACK_APP_TOKEN_ENV} <token>`,
  discord: `reset the bot's token in the Discord Developer Portal (Bot → Reset Token) and set it: iris config set ${DISCORD_TOKEN_ENV} <token>`,
  sms: 'copy the Account SID and Auth Token from the Twilio console and set them: iris config set TWILIO_ACCOUNT_SID <sid>; iris config set TWILIO_AUTH_TOKEN <token>',
};

const UNREACHABLE_FIXES: Partial<Record<PlatformName, string>> = {
  telegram: 'check that platforms.telegram.extra.api_base is reachable from this machine (network, HTTPS_PROXY)',
  discord: 'check that platforms.discord.extra.api_base is reachable from this machine (network, HTTPS_PROXY)',
  signal: 'start the daemon (signal-cli -a <number> daemon --http 127.0.0.1:8080) and check platforms.signal.extra.http_url',
  slack: 'check that platforms.slack.extra.api_base is reachable from this machine (network, HTTPS_PROXY)',
  sms: 'check that platforms.sms.extra.api_base is reachable from this machine (network, HTTPS_PROXY)',
};

const OTHER_FIXES: Partial<Record<PlatformName, string>> = {
  telegram: `check ${TELEGRAM_TOKEN_ENV} and platforms.telegram.extra.api_base`,
  discord: `check ${DISCORD_TOKEN_ENV} and platforms.discord.extra.api_base`,
  signal: 'check platforms.signal.extra.http_url and .account, and the daemon (signal-cli listAccounts)',
  slack: `check ${SLACK_BOT_TOKEN_ENV}, ${SLACK_APP_TOKEN_ENV} (Socket Mode on, the app installed) and platforms.slack.extra.api_base`,
  sms: 'check the Twilio account in the console, and platforms.sms.extra.api_base',
};

export function probeFix(name: PlatformName, cause: PlatformCheckCause | undefined): string {
  const table = cause === 'credentials' ? CREDENTIAL_FIXES : cause === 'unreachable' ? UNREACHABLE_FIXES : OTHER_FIXES;
  return table[name] ?? OTHER_FIXES[name] ?? `check platforms.${name} in config.yaml (docs/platforms.md)`;
}

/** The adapter's own check(): `platform_probe:<name>`. */
export function checkPlatformProbe(name: PlatformName, result: PlatformCheck): CheckResult {
  const id = `platform_probe:${name}`;
  const label = `${name} probe`;
  if (result.ok) return ok(id, label, result.detail);
  return fail(id, label, result.reason, probeFix(name, result.cause));
}
