// The listener's routes while the gateway runs. Subscriptions change meanwhile: the table is
// rebuilt when the file changes, and a subscription that fails the route checks is left out (with
// a warning) rather than served. The file is looked at again only when it may have changed (a
// watch, and a stat a second).
import type { HomePaths } from '../config/home.js';
import type { Config } from '../config/schema.js';
import { platformRouteProblem, type PlatformTargets } from '../platforms/delivery-target.js';
import type { ListenerLog } from '../webhook/listener.js';
import { routeProblems } from '../webhook/route-checks.js';
import { resolveRoutes, type ResolvedRoute } from '../webhook/routes.js';
import { subscriptionsPath, watchForChanges, type createSubscriptionReader } from '../webhook/subscriptions.js';

const SUBSCRIPTIONS_RECHECK_MS = 1_000;

export type LiveRouteTableDeps = {
  readonly paths: HomePaths;
  readonly config: Readonly<Config>;
  readonly reader: ReturnType<typeof createSubscriptionReader>;
  /** The routes checked at start. */
  readonly first: ReadonlyMap<string, ResolvedRoute>;
  /** The chat platforms' delivery targets (live: /sethome changes them). */
  readonly targets: PlatformTargets;
  readonly log: ListenerLog;
};

export function createLiveRouteTable(deps: LiveRouteTableDeps) {
  const { config, reader, targets, log } = deps;
  const host = config.platforms.webhook.extra.host;
  const changes = watchForChanges(subscriptionsPath(deps.paths), SUBSCRIPTIONS_RECHECK_MS);
  let table = { version: -1, routes: deps.first };
  const currentRoutes = (): ReadonlyMap<string, ResolvedRoute> => {
    if (!config.platforms.webhook.enabled) return table.routes;
    if (!changes.take() && table.version >= 0) return table.routes;
    const { file, version } = reader.read();
    if (version !== table.version) {
      const resolved = resolveRoutes(config, file.subscriptions);
      const usable = new Map<string, ResolvedRoute>();
      for (const [name, route] of resolved.routes) {
        const found = routeProblems(route, host);
        const platformProblem = route.enabled ? platformRouteProblem(route, targets) : undefined;
        if (found.length > 0) for (const problem of found) log.warn({ route: name }, `${problem}; the route is not served`);
        else if (platformProblem) {
          log.warn({ route: name }, `${platformProblem}; the route is disabled (403) until that is fixed`);
          usable.set(name, { ...route, enabled: false });
        } else usable.set(name, route);
      }
      for (const name of resolved.shadowed) log.warn({ route: name }, `subscription "${name}" is hidden by the config route of the same name`);
      table = { version, routes: usable };
    }
    return table.routes;
  };
  return { currentRoutes, close: () => changes.close() };
}
