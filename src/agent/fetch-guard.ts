// The fetch guard of this process: tools.web from config and the proxy from the service's
// environment, for every fetch of an address a stranger named (vision_analyze, web_extract,
// images attached to chats, skills by URL and hub indexes).
import type { Env } from '../config/home.js';
import type { Config } from '../config/schema.js';
import { buildFetchGuard, type FetchGuard } from '../net/fetch-guard.js';
import { resolveProxySettings } from '../providers/wire/network.js';

export function fetchGuardOf(config: Readonly<Config>, env: Env): FetchGuard {
  const { allow_private: allowPrivate, allow_cidrs: allowCidrs } = config.tools.web;
  return buildFetchGuard({ allowPrivate, allowCidrs }, resolveProxySettings(env));
}
