// The platforms this build can run, each adapter loaded only when its platform is enabled.
// Every platform the config names has an adapter here; one that did not would be refused at start.
import type { Env } from '../config/home.js';
import type { Config } from '../config/schema.js';
import type { PlatformName } from '../domain/platforms.js';
import { enabledPlatformNames } from './delivery-target.js';
import type { PlatformAdapter, PlatformCursor, PlatformLog } from './types.js';

export type AdapterContext = { readonly config: Readonly<Config>; readonly env: Env; readonly log: PlatformLog; readonly cursor?: PlatformCursor };

const LOADERS: Partial<Record<PlatformName, (context: AdapterContext) => Promise<PlatformAdapter>>> = {
  telegram: async ({ config, env, log }) => (await import('./telegram/adapter.js')).createTelegramAdapter({ extra: config.platforms.telegram.extra, env, log }),
  discord: async ({ config, env, log, cursor }) => (await import('./discord/adapter.js')).createDiscordAdapter({ extra: config.platforms.discord.extra, env, log, ...(cursor ? { cursor } : {}) }),
  signal: async ({ config, log }) => (await import('./signal/adapter.js')).createSignalAdapter({ extra: config.platforms.signal.extra, log }),
  slack: async ({ config, env, log }) => (await import('./slack/adapter.js')).createSlackAdapter({ extra: config.platforms.slack.extra, env, log }),
  sms: async ({ config, env, log }) => (await import('./sms/adapter.js')).createSmsAdapter({ extra: config.platforms.sms.extra, env, log }),
};

export function isRunnablePlatform(name: PlatformName): boolean {
  return LOADERS[name] !== undefined;
}

/** The enabled platforms this build can run. */
export function enabledPlatforms(config: Readonly<Config>): PlatformName[] {
  return enabledPlatformNames(config).filter(isRunnablePlatform);
}

export async function createPlatformAdapter(name: PlatformName, context: AdapterContext): Promise<PlatformAdapter> {
  const load = LOADERS[name];
  if (!load) throw new Error(`${name} is not available in this version of Iris`);
  return load(context);
}
