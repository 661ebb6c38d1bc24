// What the dashboard's two read endpoints answer: the providers a user can pick from (only the
// authenticated ones — a key, an endpoint, or an OAuth sign-in — with their curated models) and
// who serves each slot now. Pure: config, environment and OAuth sign-ins in, JSON-ready data out; no secret value is ever copied into it.
import { hasUsableOAuth, NO_OAUTH, type OAuthView } from '../auth/view.js';
import type { Env } from '../config/home.js';
import type { Config } from '../config/schema.js';
import { PROVIDERS, type CatalogModel, type ProviderSpec } from '../providers/catalog.js';
import { isAuthenticated } from '../providers/credentials.js';
import type { ProviderRoute } from '../providers/route.js';
import { mainRoute } from '../routing/resolve.js';
import { AUX_TASKS } from '../domain/slots.js';

export type ModelDetail = {
  readonly id: string;
  readonly context_length: number;
  readonly capabilities: readonly string[];
  readonly price: { readonly input: number; readonly output: number; readonly cached_input?: number } | null;
};

export type ProviderOption = {
  readonly slug: string;
  readonly name: string;
  readonly models: readonly string[];
  readonly model_details: readonly ModelDetail[];
  /** The models are the user's own deployments or servers: a typed id is expected. */
  readonly free_text: boolean;
  /** A custom endpoint's own list could not be read: why (the picker shows it; a typed id still works). */
  readonly models_error?: string;
};

/** What GET <base>/models answered for a custom endpoint, when it was asked. */
export type EndpointModels = { readonly ok: true; readonly ids: readonly string[] } | { readonly ok: false; readonly message: string };

/** The route the options would probe for a custom endpoint's own model list, if it has one. */
export function customEndpointRoute(config: Readonly<Config>, env: Env): ProviderRoute | undefined {
  const spec = PROVIDERS.find((p) => p.id === 'custom');
  if (!spec) return undefined;
  const route = routeFor(spec, config);
  return isAuthenticated(route, env, false) ? route : undefined;
}

export type ModelOptions = {
  readonly provider: string;
  readonly model: string;
  readonly providers: readonly ProviderOption[];
  readonly unauthenticated: ReadonlyArray<{ readonly slug: string; readonly name: string; readonly key_env?: string }>;
};

const FREE_TEXT = new Set(['cloud-hosted', 'custom']);

function detail(model: CatalogModel): ModelDetail {
  return {
    id: model.id,
    context_length: model.contextLength,
    capabilities: [...model.capabilities],
    price: model.price
      ? { input: model.price.input, output: model.price.output, ...(model.price.cachedInput !== undefined ? { cached_input: model.price.cachedInput } : {}) }
      : null,
  };
}

/** The route a provider would be used with: the main model's settings when it is the main provider. */
function routeFor(spec: ProviderSpec, config: Readonly<Config>): ProviderRoute {
  const m = config.model;
  if (m === '' || m.provider !== spec.id) return { provider: spec.id, model: spec.defaultModel ?? '' };
  return {
    provider: spec.id,
    model: m.default || m.model || '',
    ...(m.base_url ? { baseUrl: m.base_url } : {}),
    ...(m.key_env ? { keyEnv: m.key_env } : {}),
    ...(m.auth_mode ? { authMode: m.auth_mode } : {}),
  };
}

/** `custom`: what its endpoint listed (custom has no curated list of its own). */
export function modelOptions(config: Readonly<Config>, env: Env, oauth: OAuthView = NO_OAUTH, custom?: EndpointModels): ModelOptions {
  const main = mainRoute(config);
  const providers: ProviderOption[] = [];
  const unauthenticated: Array<{ slug: string; name: string; key_env?: string }> = [];
  for (const spec of PROVIDERS) {
    if (isAuthenticated(routeFor(spec, config), env, hasUsableOAuth(oauth, spec.id))) {
      const listed = spec.id === 'custom' && custom?.ok ? custom.ids : undefined;
      providers.push({
        slug: spec.id,
        name: spec.name,
        models: listed ? [...listed] : spec.models.map((m) => m.id),
        model_details: spec.models.map(detail),
        free_text: FREE_TEXT.has(spec.id),
        ...(spec.id === 'custom' && custom && !custom.ok ? { models_error: custom.message } : {}),
      });
    } else {
      unauthenticated.push({ slug: spec.id, name: spec.name, ...(spec.keyEnv ? { key_env: spec.keyEnv } : {}) });
    }
  }
  return { provider: main?.provider ?? '', model: main?.model ?? '', providers, unauthenticated };
}

export type AuxiliaryAssignments = {
  readonly main: { readonly provider: string; readonly model: string };
  readonly tasks: ReadonlyArray<{ readonly task: string; readonly name: string; readonly provider: string; readonly model: string; readonly base_url: string }>;
};

export function auxiliaryAssignments(config: Readonly<Config>): AuxiliaryAssignments {
  const main = mainRoute(config);
  return {
    main: { provider: main?.provider ?? '', model: main?.model ?? '' },
    tasks: AUX_TASKS.map((spec) => {
      const slot = config.auxiliary[spec.id];
      return { task: spec.id, name: spec.name, provider: slot.provider || 'auto', model: slot.model, base_url: slot.base_url };
    }),
  };
}
