// `iris webhook subscribe | list | remove | test | deliveries`: dynamic routes (stored in
// $IRIS_HOME/webhook_subscriptions.json, picked up by a running gateway at once), a signed test
// event for a subscription, and what happened to recent events.
import { randomBytes, randomUUID } from 'node:crypto';
import type { HomePaths } from '../../config/home.js';
import { fail, type Result } from '../../config/result.js';
import { DELIVER_TARGETS, type Config } from '../../config/schema.js';
import { findGateway, listenerBaseUrl } from '../../gateway/address-file.js';
import { checkName, type NameKind } from '../../security/names.js';
import { openStoreAt } from '../../store/open-store.js';
import { deliveryDetail, deliveryRow } from '../../webhook/delivery-view.js';
import { routeProblems } from '../../webhook/route-checks.js';
import { platformRouteProblem, platformTargets } from '../../platforms/delivery-target.js';
import { resolveRoutes, type ResolvedRoute } from '../../webhook/routes.js';
import { loadSubscriptions, updateSubscriptions, type Subscription } from '../../webhook/subscriptions.js';
import { samplePayloadFor, type SamplePayload } from '../../webhook/sample-payloads.js';
import { signBody } from '../../webhook/verify.js';
import { printData, printJson, printWarning } from '../console.js';
import { cliStoreTarget } from '../store-target.js';
import { deliveryDetailText, deliveryRowText } from '../deliveries-text.js';
import { openConfig, openHome } from '../context.js';
import { CliFailure, EXIT } from '../exit-codes.js';

export type SubscribeOptions = {
  events?: string;
  prompt?: string;
  deliver?: string;
  deliverExtra?: string[];
  skills?: string;
  toolsets?: string;
  secret?: string;
  json?: boolean;
};

const list = (text: string | undefined) => (text ?? '').split(',').map((item) => item.trim()).filter(Boolean);

/** A name from the command line, checked before anything is read or written: a bad one is a usage error. */
function nameArgument(kind: NameKind, name: string): string {
  const checked = checkName(kind, name);
  if (!checked.ok) throw new CliFailure('usage', checked.error);
  return name;
}

function parseDeliverExtra(pairs: readonly string[]): Record<string, string> {
  const extra: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new CliFailure('usage', `--deliver-extra takes key=value (got "${pair}")`);
    extra[pair.slice(0, at).trim()] = pair.slice(at + 1);
  }
  return extra;
}

async function loadRoutes(paths: HomePaths): Promise<{ config: Readonly<Config>; routes: ReadonlyMap<string, ResolvedRoute>; subscriptions: Readonly<Record<string, Subscription>> }> {
  const { config } = await openConfig(paths);
  const loaded = await loadSubscriptions(paths);
  if (!loaded.ok) throw new CliFailure(loaded.error.code, loaded.error.message);
  for (const problem of loaded.problems) printWarning(problem);
  return { config, routes: resolveRoutes(config, loaded.subscriptions).routes, subscriptions: loaded.subscriptions };
}

/** Where routes are served: this home's running gateway where it listens, else the configured listener. */
async function listenerBase(paths: HomePaths, config: Readonly<Config>): Promise<string> {
  return listenerBaseUrl(await findGateway(paths, config.platforms.webhook.extra), config.platforms.webhook.extra);
}

export async function webhookSubscribe(name: string, options: SubscribeOptions): Promise<void> {
  nameArgument('route', name);
  // The route's skills become folder names when a run loads one.
  for (const skill of list(options.skills)) nameArgument('skill', skill);
  const deliver = options.deliver ?? 'log';
  if (!(DELIVER_TARGETS as readonly string[]).includes(deliver)) {
    throw new CliFailure('usage', `--deliver must be one of ${DELIVER_TARGETS.join(', ')} (got "${deliver}")`);
  }
  if (options.secret !== undefined && options.secret.trim() === '') throw new CliFailure('usage', '--secret cannot be empty (leave it out to get a random one)');
  const paths = await openHome();
  const { config } = await openConfig(paths);
  if (Object.hasOwn(config.platforms.webhook.extra.routes, name)) {
    throw new CliFailure('usage', `a route named "${name}" is defined in config.yaml (platforms.webhook.extra.routes.${name}); it would win over a subscription, so pick another name`);
  }
  const generated = options.secret === undefined ? randomBytes(32).toString('hex') : undefined;
  type Saved = { updated: boolean; secretShown: string | undefined; subscription: Subscription };
  const result = await updateSubscriptions<Saved>(paths, (entries, current): Result<Saved> => {
    const existing = current.subscriptions[name];
    const subscription: Subscription = {
      enabled: true,
      events: list(options.events),
      filters: [],
      ...(options.prompt !== undefined ? { prompt: options.prompt } : {}),
      skills: list(options.skills),
      toolsets: list(options.toolsets),
      deliver: deliver as Subscription['deliver'],
      deliver_extra: parseDeliverExtra(options.deliverExtra ?? []),
      session: existing?.session ?? 'per_event',
      commands: existing?.commands ?? false,
      coalesce_seconds: existing?.coalesce_seconds ?? 30,
      // Subscribing again updates the route and keeps its secret, unless a new one is given.
      secret: options.secret?.trim() ?? existing?.secret ?? generated!,
      created_at: existing?.created_at ?? new Date().toISOString(),
    };
    const route: ResolvedRoute = { ...subscription, name, source: 'subscription' };
    const problems = routeProblems(route, config.platforms.webhook.extra.host);
    const platformProblem = platformRouteProblem(route, platformTargets(config));
    if (platformProblem) problems.push(platformProblem);
    if (problems.length > 0) return fail('invalid_value', problems.join('; '));
    entries[name] = subscription;
    return { ok: true, updated: existing !== undefined, secretShown: options.secret === undefined && existing === undefined ? subscription.secret : undefined, subscription };
  });
  if (!result.ok) throw new CliFailure(result.error.code, result.error.message);
  const url = `${await listenerBase(paths, config)}/webhooks/${name}`;
  if (options.json) {
    printJson({ name, url, updated: result.updated, events: result.subscription.events, deliver, ...(result.secretShown ? { secret: result.secretShown } : {}) });
    return;
  }
  const lines = [
    `${result.updated ? 'updated' : 'subscribed'} ${name}: POST ${url}`,
    `  events: ${result.subscription.events.length > 0 ? result.subscription.events.join(', ') : 'all'}; deliver: ${deliver}`,
  ];
  if (result.secretShown) lines.push(`  secret: ${result.secretShown}`, '  (shown once: put it in the code host\'s webhook settings now)');
  else if (result.updated && options.secret === undefined) lines.push('  secret: unchanged');
  if (!config.platforms.webhook.enabled) lines.push('  note: the webhook platform is off; turn it on with iris config set platforms.webhook.enabled true');
  printData(lines.join('\n'));
}

export async function webhookList(options: { json?: boolean }): Promise<void> {
  const paths = await openHome();
  const { config, routes } = await loadRoutes(paths);
  const base = await listenerBase(paths, config);
  const rows = [...routes.values()].map((route) => ({
    name: route.name,
    source: route.source,
    enabled: route.enabled,
    events: route.events,
    deliver: route.deliver,
    url: `${base}/webhooks/${route.name}`,
    has_secret: route.secret !== '',
  }));
  if (options.json) return printJson(rows);
  if (rows.length === 0) return printData('no webhook routes (add one with iris webhook subscribe <name>)');
  printData(
    rows
      .map((r) => `${r.name} (${r.source}${r.enabled ? '' : ', disabled'})  ${r.url}\n  events: ${r.events.length ? r.events.join(', ') : 'all'}; deliver: ${r.deliver}${r.has_secret ? '' : '; NO SECRET'}`)
      .join('\n'),
  );
}

export async function webhookRemove(name: string, options: { json?: boolean } = {}): Promise<void> {
  nameArgument('route', name);
  const paths = await openHome();
  const { config } = await openConfig(paths);
  const result = await updateSubscriptions<object>(paths, (entries): Result<object> => {
    if (!Object.hasOwn(entries, name)) {
      return Object.hasOwn(config.platforms.webhook.extra.routes, name)
        ? fail('invalid_key', `"${name}" is a config.yaml route, not a subscription; remove it from platforms.webhook.extra.routes`)
        : fail('invalid_key', `no subscription named "${name}" (iris webhook list shows them)`);
    }
    delete entries[name];
    return { ok: true };
  });
  if (!result.ok) throw new CliFailure(result.error.code === 'invalid_key' ? 'not_found' : result.error.code, result.error.message);
  if (options.json) printJson({ removed: name });
  else printData(`removed ${name}`);
}

export async function webhookTest(name: string, options: { payload?: string; event?: string; json?: boolean }): Promise<number> {
  nameArgument('route', name);
  const paths = await openHome();
  const { config, subscriptions } = await loadRoutes(paths);
  if (Object.hasOwn(config.platforms.webhook.extra.routes, name)) {
    throw new CliFailure('usage', `"${name}" is a config.yaml route; iris webhook test works for subscriptions only (send a signed event from the code host, or use a subscription)`);
  }
  const subscription = subscriptions[name];
  if (!subscription) throw new CliFailure('not_found', `no subscription named "${name}" (iris webhook list shows them)`);
  const event = options.event ?? subscription.events[0] ?? 'test';
  // A realistic sample of the event, so the route's prompt and deliver_extra find their fields.
  const sample = options.payload === undefined ? samplePayloadFor(event) : undefined;
  let payload: unknown = sample?.payload;
  if (options.payload !== undefined) {
    try {
      payload = JSON.parse(options.payload);
    } catch {
      throw new CliFailure('usage', '--payload is not valid JSON');
    }
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new CliFailure('usage', '--payload must be a JSON object');
  }
  const body = JSON.stringify(payload);
  const deliveryId = `test-${randomUUID()}`;
  // Only this home's own gateway, where it said it listens: never whatever else answers on the configured port.
  const gateway = await findGateway(paths, config.platforms.webhook.extra);
  if (gateway.state !== 'running') {
    throw new CliFailure('not_found', `this home's gateway is not running (${gateway.why}), so nothing was sent; start it with iris gateway start`);
  }
  const url = `${gateway.url}/webhooks/${name}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forge-event': event, 'x-forge-delivery': deliveryId, 'x-hub-signature-256': signBody(body, subscription.secret) },
      body,
      signal: AbortSignal.timeout(10_000),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    throw new CliFailure('io_error', `cannot reach this home's gateway (pid ${gateway.pid}) at ${url}${cause ? ` (${cause})` : ''}; see iris gateway status`);
  }
  const text = await response.text();
  if (options.json) printJson({ status: response.status, body: safeJson(text), delivery_id: deliveryId, event, sample: sample?.description ?? null });
  else printData(`POST ${url} (event ${event}, delivery ${deliveryId})\n${response.status} ${text}${sample ? `\n${sampleNote(sample)}` : ''}`);
  return response.ok ? EXIT.ok : EXIT.failure;
}

function sampleNote(sample: SamplePayload): string {
  return `sent ${sample.description}; send your own with --payload '<json>' (and --event <name>), then see iris webhook deliveries`;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export type DeliveriesOptions = { route?: string; limit?: string; show?: string; json?: boolean };

/** `--show 12` or `--show '#12'`: an inbox id. */
function parseEventId(text: string): number {
  const id = Number(text.trim().replace(/^#/, ''));
  if (!/^#?\d+$/.test(text.trim()) || !Number.isSafeInteger(id) || id < 1) throw new CliFailure('usage', `--show takes an event id as listed by iris webhook deliveries, such as 12 (got "${text}")`);
  return id;
}

export async function webhookDeliveries(options: DeliveriesOptions): Promise<void> {
  const limit = options.limit === undefined ? 20 : Number(options.limit);
  if (!Number.isSafeInteger(limit) || limit < 1) throw new CliFailure('usage', `--limit must be a positive whole number (got "${options.limit}")`);
  const showId = options.show === undefined ? undefined : parseEventId(options.show);
  if (options.route !== undefined) nameArgument('route', options.route);
  const paths = await openHome();
  const store = await openStoreAt(await cliStoreTarget(paths)).catch((err: Error) => {
    throw new CliFailure('io_error', err.message);
  });
  try {
    if (showId !== undefined) {
      const record = await store.webhooks.get(showId);
      if (!record) throw new CliFailure('not_found', `no webhook event #${showId} (iris webhook deliveries lists them)`);
      const detail = deliveryDetail(record);
      if (options.json) printJson(detail);
      else printData(deliveryDetailText(detail));
      return;
    }
    const rows = (await store.webhooks.list({ ...(options.route ? { route: options.route } : {}), limit })).map(deliveryRow);
    if (options.json) return printJson(rows);
    if (rows.length === 0) return printData(options.route ? `no events for route ${options.route}` : 'no webhook events yet');
    printData(rows.map(deliveryRowText).join('\n'));
  } finally {
    await store.close();
  }
}
