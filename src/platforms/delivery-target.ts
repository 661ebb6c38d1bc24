// Where a webhook route's answer goes when it delivers to a chat platform (DECISIONS § Chat
// platforms): `deliver_extra.chat_id` (rendered from the payload), else the platform's
// `home_channel`; `deliver_extra.thread_id` optional. A route that names a platform that is not
// enabled, or has no chat_id where the platform has no home channel, cannot be delivered. Pure.
import type { Config } from '../config/schema.js';
import { CHAT_PLATFORMS, isPlatformName, type PlatformName } from '../domain/platforms.js';
import { configId } from './config-id.js';

/** The enabled platforms and their home channels ('' for none). */
export type PlatformTargets = ReadonlyMap<PlatformName, { readonly homeChannel: string }>;

type PlatformSection = { readonly enabled?: boolean; readonly extra?: { readonly home_channel?: string | number } };

/** The chat platforms switched on in config.yaml (whether or not this build can run them). */
export function enabledPlatformNames(config: Readonly<Config>): PlatformName[] {
  const sections = config.platforms as Readonly<Record<string, PlatformSection | undefined>>;
  return CHAT_PLATFORMS.filter((name) => sections[name]?.enabled === true);
}

export function platformTargets(config: Readonly<Config>): PlatformTargets {
  const sections = config.platforms as Readonly<Record<string, PlatformSection | undefined>>;
  return new Map(enabledPlatformNames(config).map((name) => [name, { homeChannel: configId(name, sections[name]?.extra?.home_channel ?? '').trim() }]));
}

/**
 * Why a route that delivers to a platform can never be delivered, from its settings alone
 * (subscribe and gateway start); undefined when it can, or when it does not deliver to a platform.
 */
export function platformRouteProblem(route: { readonly name: string; readonly deliver: string; readonly deliver_extra: Readonly<Record<string, string | number>> }, targets: PlatformTargets): string | undefined {
  if (!isPlatformName(route.deliver)) return undefined;
  const target = targets.get(route.deliver);
  if (!target) return `route "${route.name}" delivers to ${route.deliver}, which is not enabled (set platforms.${route.deliver}.enabled: true and its settings; docs/platforms.md)`;
  const chatId = String(route.deliver_extra.chat_id ?? '').trim();
  if (chatId === '' && target.homeChannel === '') {
    return `route "${route.name}" delivers to ${route.deliver} without a deliver_extra.chat_id, and ${route.deliver} has no home_channel (set platforms.${route.deliver}.extra.home_channel, send /sethome in the chat, or give the route a chat_id)`;
  }
  return undefined;
}

export type PlatformTarget =
  | { readonly ok: true; readonly platform: PlatformName; readonly chatId: string; readonly threadId: string | null }
  | { readonly ok: false; readonly error: string };

/** The chat of one event's answer, from the route's rendered deliver_extra. */
export function resolvePlatformTarget(deliver: string, renderedExtra: Readonly<Record<string, string>>, targets: PlatformTargets): PlatformTarget {
  if (!isPlatformName(deliver)) return { ok: false, error: `deliver ${deliver} is not a chat platform` };
  const target = targets.get(deliver);
  if (!target) return { ok: false, error: `deliver ${deliver}: platform not enabled` };
  const chatId = (renderedExtra.chat_id ?? '').trim() || target.homeChannel;
  if (chatId === '') return { ok: false, error: `deliver ${deliver}: no chat_id and no home_channel` };
  if (/\{[A-Za-z0-9_.]+\}/.test(chatId)) return { ok: false, error: `deliver ${deliver}: chat_id "${chatId}" names a field the payload does not have` };
  const threadId = (renderedExtra.thread_id ?? '').trim();
  return { ok: true, platform: deliver, chatId, threadId: threadId === '' || /\{[A-Za-z0-9_.]+\}/.test(threadId) ? null : threadId };
}
