// A session's routes: the config's, with the session's own main model in place of the
// configured one (a resumed session, or one switched with /model).
import type { OAuthView } from '../auth/view.js';
import type { Env } from '../config/home.js';
import type { Config } from '../config/schema.js';
import { snapshotRoutes, type RoutingSnapshot } from '../routing/call-model.js';
import { mainRoute } from '../routing/resolve.js';

export type MainModel = { readonly provider: string; readonly model: string; readonly baseUrl?: string };

/** The config with `main` as its main model; settings that belonged to another provider go. */
export function withMainModel(config: Readonly<Config>, main: MainModel): Readonly<Config> {
  const current = config.model === '' ? {} : config.model;
  const sameProvider = current.provider === main.provider;
  const base = sameProvider ? { ...current } : {};
  delete (base as { model?: string }).model;
  return {
    ...config,
    model: {
      ...base,
      provider: main.provider,
      default: main.model,
      ...(main.baseUrl ? { base_url: main.baseUrl } : {}),
    },
  };
}

export function sessionSnapshot(config: Readonly<Config>, env: Env, main?: MainModel, oauth?: OAuthView): RoutingSnapshot {
  return snapshotRoutes(main ? withMainModel(config, main) : config, env, oauth);
}

/** The main model a new session starts with, or undefined while none is configured. */
export function configuredMain(config: Readonly<Config>): MainModel | undefined {
  const route = mainRoute(config);
  return route ? { provider: route.provider, model: route.model, ...(route.baseUrl ? { baseUrl: route.baseUrl } : {}) } : undefined;
}
