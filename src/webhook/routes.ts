// The routes a listener serves: the static ones of config.yaml and the dynamic subscriptions,
// each with its effective secret (the route's own, else `extra.secret`). A static route wins a
// name clash, so a subscription can never take over a route someone configured by hand.
import * as z from 'zod/mini';
import type { Config, WebhookRoute } from '../config/schema.js';
import { DELIVER_TARGETS, ROUTE_SESSIONS, webhookRouteSchema } from '../config/schema.js';
import { ROUTE_SANDBOX_MODES } from '../domain/sandbox-modes.js';

export type RouteSource = 'config' | 'subscription';

// Spelled out: the route schema is a loose object, whose index signature `Omit` would keep alone.
export type ResolvedRoute = Pick<
  WebhookRoute,
  'enabled' | 'events' | 'filters' | 'prompt' | 'skills' | 'toolsets' | 'deliver' | 'deliver_extra' | 'session' | 'commands' | 'coalesce_seconds' | 'sandbox' | 'sandbox_network' | 'sandbox_env' | 'review'
> & {
  readonly name: string;
  readonly source: RouteSource;
  /** The effective secret; '' when neither the route nor `extra.secret` has one. */
  readonly secret: string;
};

export type RouteTable = {
  readonly routes: ReadonlyMap<string, ResolvedRoute>;
  /** Subscriptions hidden by a static route of the same name. */
  readonly shadowed: readonly string[];
};

export function resolveRoutes(config: Readonly<Config>, subscriptions: Readonly<Record<string, WebhookRoute>>): RouteTable {
  const extra = config.platforms.webhook.extra;
  const routes = new Map<string, ResolvedRoute>();
  const add = (name: string, route: WebhookRoute, source: RouteSource) =>
    routes.set(name, {
      name,
      source,
      // Trimmed: a secret of spaces is no secret (HMAC would accept signatures keyed with it),
      // and a route's blank secret falls back to the global one like a missing one does.
      secret: (route.secret ?? '').trim() || extra.secret.trim(),
      enabled: route.enabled,
      events: route.events,
      filters: route.filters,
      ...(route.prompt !== undefined ? { prompt: route.prompt } : {}),
      skills: route.skills,
      toolsets: route.toolsets,
      deliver: route.deliver,
      deliver_extra: route.deliver_extra,
      session: route.session,
      commands: route.commands,
      coalesce_seconds: route.coalesce_seconds,
      ...(route.sandbox !== undefined ? { sandbox: route.sandbox } : {}),
      ...(route.sandbox_network !== undefined ? { sandbox_network: route.sandbox_network } : {}),
      ...(route.sandbox_env !== undefined ? { sandbox_env: route.sandbox_env } : {}),
      ...(route.review !== undefined ? { review: route.review } : {}),
    });
  for (const [name, route] of Object.entries(config.platforms.webhook.extra.routes)) add(name, route, 'config');
  const shadowed: string[] = [];
  for (const [name, route] of Object.entries(subscriptions)) {
    if (routes.has(name)) shadowed.push(name);
    else add(name, route, 'subscription');
  }
  return { routes, shadowed };
}

// What an accepted event keeps of its route: enough to run and deliver it later, never the secret.
const routeSnapshotSchema = z.object({
  name: z.string(),
  source: z.enum(['config', 'subscription']),
  prompt: z.optional(z.string()),
  skills: z.array(z.string()),
  // Absent in events accepted before routes had toolsets: they run with the webhook default.
  toolsets: z.optional(z.array(z.string())),
  deliver: z.enum(DELIVER_TARGETS),
  deliver_extra: z.record(z.string(), z.union([z.string(), z.number()])),
  // Absent in events accepted before PR reviews: a session per event, no commands.
  session: z.optional(z.enum(ROUTE_SESSIONS)),
  commands: z.optional(z.boolean()),
  // Absent when the route leaves the sandbox to tools.terminal (and in events accepted before it).
  sandbox: z.optional(z.enum(ROUTE_SANDBOX_MODES)),
  sandbox_network: z.optional(z.boolean()),
  sandbox_env: z.optional(z.array(z.string())),
  // A PR review's settings (absent: the defaults of src/review/rules.ts).
  review: z.optional(z.object({ max_diff_tokens: z.optional(z.number()) })),
});

export type RouteSnapshot = z.output<typeof routeSnapshotSchema>;

export function routeSnapshot(route: ResolvedRoute): string {
  const snapshot: RouteSnapshot = {
    name: route.name,
    source: route.source,
    ...(route.prompt !== undefined ? { prompt: route.prompt } : {}),
    skills: [...route.skills],
    ...(route.toolsets.length > 0 ? { toolsets: [...route.toolsets] } : {}),
    deliver: route.deliver,
    deliver_extra: { ...route.deliver_extra },
    ...(route.session !== 'per_event' ? { session: route.session } : {}),
    ...(route.commands ? { commands: true } : {}),
    ...(route.sandbox !== undefined ? { sandbox: route.sandbox } : {}),
    ...(route.sandbox_network !== undefined ? { sandbox_network: route.sandbox_network } : {}),
    ...(route.sandbox_env !== undefined ? { sandbox_env: [...route.sandbox_env] } : {}),
    ...(route.review?.max_diff_tokens !== undefined ? { review: { max_diff_tokens: route.review.max_diff_tokens } } : {}),
  };
  return JSON.stringify(snapshot);
}

export function parseRouteSnapshot(text: string): { ok: true; snapshot: RouteSnapshot } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'the stored route is not JSON' };
  }
  const parsed = routeSnapshotSchema.safeParse(value);
  return parsed.success ? { ok: true, snapshot: parsed.data } : { ok: false, error: `the stored route is unreadable: ${parsed.error.issues[0]?.message ?? 'invalid'}` };
}

/** The schema of one route, for subscriptions read back from disk. */
export { webhookRouteSchema };

/** A route that keeps one session per pull request or obeys comment commands: its events are about a PR. */
export function isPrRoute(route: Pick<RouteSnapshot, 'session' | 'commands'>): boolean {
  return route.session === 'per_pr' || route.commands === true;
}
