// What a started gateway prints (one block, so a reader sees it whole): where it listens and what
// it serves, or that it is a worker alone; the store; each platform; what it took back.
import type { GatewayRole } from '../domain/gateway-role.js';
import type { ResolvedRoute } from '../webhook/routes.js';
import { METRICS_PATH, METRICS_TOKEN_ENV } from './metrics/scrape.js';

export type StartFacts = {
  readonly role: GatewayRole;
  readonly host: string;
  /** Both undefined for a worker alone. */
  readonly port: number | undefined;
  readonly url: string | undefined;
  readonly metrics: { readonly tokenSet: boolean } | undefined;
  readonly webhookEnabled: boolean;
  readonly routes: readonly ResolvedRoute[];
  readonly store: { readonly backend: string; readonly location: string };
  readonly platforms: ReadonlyArray<{ readonly name: string; readonly connected: boolean; readonly detail: string }>;
  readonly recoveredMessages: number;
  readonly recoveredRuns: number;
  readonly pid: number;
};

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function startLines(facts: StartFacts): string[] {
  const { url, port } = facts;
  const listener =
    url !== undefined && port !== undefined
      ? [
          `gateway listening on ${facts.host}:${port} (pid ${facts.pid})`,
          ...(facts.role === 'listener' ? ['  role: listener (accepts and stores; runs, deliveries and chat answers are left to the workers)'] : []),
          `  health: ${url}/health`,
          ...(facts.metrics ? [`  metrics: ${url}${METRICS_PATH} (${facts.metrics.tokenSet ? `bearer token from ${METRICS_TOKEN_ENV}` : `no ${METRICS_TOKEN_ENV}: anyone who reaches the port may read it`})`] : []),
          ...facts.routes.map(
            (route) =>
              `  route ${route.name} (${route.source}${route.enabled ? '' : ', disabled'}): POST ${url}/webhooks/${route.name} → deliver ${route.deliver}` +
              (route.events.length > 0 ? `, events ${route.events.join(', ')}` : ', all events'),
          ),
          ...(facts.webhookEnabled && facts.routes.length === 0 ? ['  no routes yet: add one to config.yaml or with iris webhook subscribe'] : []),
        ]
      : [`gateway worker running (pid ${facts.pid}): webhook runs and deliveries, chat answers and sends; no listener here`];
  return [
    ...listener,
    `  store: ${facts.store.backend} ${facts.store.location}`,
    ...facts.platforms.map((state) => `  platform ${state.name}: ${state.connected ? 'connected' : 'not connected'} (${state.detail})`),
    ...(facts.recoveredMessages > 0 ? [`  ${plural(facts.recoveredMessages, 'interrupted chat message', 'interrupted chat messages')} put back in the queue`] : []),
    ...(facts.recoveredRuns > 0 ? [`  ${plural(facts.recoveredRuns, 'interrupted run', 'interrupted runs')} put back in the inbox`] : []),
  ];
}
