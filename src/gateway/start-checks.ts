// The gateway's first step: everything that can be checked before anything is held (no pid file,
// no store, no port), so a start either fails here with every problem listed, or goes on.
import type { HomePaths } from '../config/home.js';
import type { Config } from '../config/schema.js';
import { loadConfig } from '../config/store.js';
import { formatProblem } from '../config/validate.js';
import { ROLE_PLANS, type GatewayRole, type RolePlan } from '../domain/gateway-role.js';
import { SET_UP_MODEL } from '../domain/setup-hint.js';
import type { PlatformName } from '../domain/platforms.js';
import { enabledPlatformNames, platformRouteProblem, platformTargets } from '../platforms/delivery-target.js';
import { isRunnablePlatform } from '../platforms/registry.js';
import { mainRoute } from '../routing/resolve.js';
import { routeProblems } from '../webhook/route-checks.js';
import { resolveRoutes, type ResolvedRoute } from '../webhook/routes.js';
import { createSubscriptionReader, subscriptionsPath } from '../webhook/subscriptions.js';

type SubscriptionReader = ReturnType<typeof createSubscriptionReader>;

type WarnLog = { warn(fields: object, message: string): void };

export type StartChecked = {
  readonly ok: true;
  readonly config: Readonly<Config>;
  readonly plan: RolePlan;
  /** The enabled chat platforms, and those among them this version cannot run (left stopped). */
  readonly chatPlatforms: ReturnType<typeof enabledPlatformNames>;
  readonly unsupported: ReturnType<typeof enabledPlatformNames>;
  /** Each platform's delivery target; live: /sethome changes a home channel while the gateway runs. */
  readonly targets: Map<PlatformName, { readonly homeChannel: string }>;
  readonly reader: SubscriptionReader;
  /** The routes served at start (one to a platform that is not set up is disabled). */
  readonly routes: readonly ResolvedRoute[];
  /** Problems that do not stop the start, to log and print as warnings. */
  readonly warnings: readonly string[];
  /** From now on subscription problems go to this log (those found before are in `warnings`). */
  readonly attachLog: (log: WarnLog) => void;
};

export type StartRefused = { readonly ok: false; readonly code: 'config'; readonly problems: readonly string[] };

export async function checkGatewayStart(paths: HomePaths, role: GatewayRole): Promise<StartChecked | StartRefused> {
  const plan = ROLE_PLANS[role];
  const loaded = await loadConfig(paths);
  if (!loaded.ok) return { ok: false, code: 'config', problems: [loaded.error.message] };
  const config = loaded.config;
  const webhook = config.platforms.webhook;
  const chatPlatforms = enabledPlatformNames(config);
  if (!webhook.enabled && chatPlatforms.length === 0) {
    return { ok: false, code: 'config', problems: ['no platform is enabled: set platforms.webhook.enabled to true (iris config set platforms.webhook.enabled true), or enable a chat platform (docs/platforms.md)'] };
  }
  const targets = new Map(platformTargets(config));
  // Unreadable webhook settings fall back to defaults elsewhere; here they would serve the wrong
  // routes or secrets, so they stop the start.
  const problems = loaded.problems.filter((p) => p.path.startsWith('platforms.')).map(formatProblem);
  const unsupported = chatPlatforms.filter((name) => !isRunnablePlatform(name));
  for (const name of unsupported) problems.push(`platforms.${name}.enabled: ${name} is not available in this version of Iris; set it to false`);

  // The log is opened only once the checks pass; until then subscription problems are kept here.
  let log: WarnLog | undefined;
  const early: string[] = [];
  const reader = createSubscriptionReader(subscriptionsPath(paths), (found) => {
    for (const problem of found) {
      if (log) log.warn({}, problem);
      else early.push(problem);
    }
  });
  // Webhook routes are served only when the webhook platform is on (the listener may be there for SMS alone).
  const resolved = webhook.enabled ? resolveRoutes(config, reader.read().file.subscriptions) : { routes: new Map<string, ResolvedRoute>(), shadowed: [] };
  // A route to a chat platform that is not set up is reported and disabled (403); the rest serves.
  const undeliverable: string[] = [];
  const routes = [...resolved.routes.values()].map((route) => {
    const problem = route.enabled ? platformRouteProblem(route, targets) : undefined;
    if (!problem) return route;
    undeliverable.push(`${problem}; the route is disabled (403) until that is fixed`);
    return { ...route, enabled: false };
  });
  problems.push(...routes.flatMap((route) => routeProblems(route, webhook.extra.host)));
  // Every run needs the main model; without one each accepted event would fail. A listener alone
  // runs nothing: its workers' homes need the model.
  if (plan.works && !mainRoute(config)) problems.push(`no main model is configured (model: ''), so no event could run; ${SET_UP_MODEL}`);
  if (problems.length > 0) return { ok: false, code: 'config', problems };
  return {
    ok: true,
    config,
    plan,
    chatPlatforms,
    unsupported,
    targets,
    reader,
    routes,
    warnings: [...early, ...undeliverable],
    attachLog: (attached) => {
      log = attached;
    },
  };
}
