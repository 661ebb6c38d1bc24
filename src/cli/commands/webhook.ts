// `iris webhook subscribe | list | remove | test | deliveries`: dynamic routes (stored in
// $IRIS_HOME/webhook_subscriptions.json, picked up by a running gateway at once), a signed test
// event for a subscription, and what happened to recent events.
import type { HomePaths } from '../../config/home.js';
import type { Config } from '../../config/schema.js';
import { checkName, type NameKind } from '../../security/names.js';
import { openStoreAt } from '../../store/open-store.js';
import { deliveryListRow, deliveryStory } from '../../webhook/delivery-story.js';
import { parseDeliveryState } from '../../webhook/deliveries-query.js';
import {
  answerBody,
  checkSubscribeInput,
  listenerBase,
  removeSubscription,
  routeRows,
  sendTestEvent,
  sandboxLine,
  subscribeRoute,
  type FieldLabel,
  type RouteFailure,
  type SubscribeInput,
} from '../../webhook/manage-routes.js';
import { loadSubscriptions, type Subscription } from '../../webhook/subscriptions.js';
import type { SamplePayload } from '../../webhook/sample-payloads.js';
import { printData, printJson, printWarning } from '../console.js';
import { cliStoreTarget } from '../store-target.js';
import { deliveryDetailText, deliveryRowText } from '../deliveries-text.js';
import { openConfig, openHome } from '../context.js';
import { CliFailure, EXIT, type CliErrorCode } from '../exit-codes.js';

export type SubscribeOptions = {
  events?: string;
  prompt?: string;
  deliver?: string;
  deliverExtra?: string[];
  skills?: string;
  toolsets?: string;
  secret?: string;
  sandbox?: string;
  sandboxNetwork?: boolean;
  sandboxEnv?: string;
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

async function loadRoutes(paths: HomePaths): Promise<{ config: Readonly<Config>; subscriptions: Readonly<Record<string, Subscription>> }> {
  const { config } = await openConfig(paths);
  const loaded = await loadSubscriptions(paths);
  if (!loaded.ok) throw new CliFailure(loaded.error.code, loaded.error.message);
  for (const problem of loaded.problems) printWarning(problem);
  return { config, subscriptions: loaded.subscriptions };
}

/** The command line names its inputs by their flags. */
const flag: FieldLabel = (field) => `--${field.replaceAll('_', '-')}`;

/** A library refusal as the command's failure; `staticRoute` is how this command treats a config.yaml route. */
function cliFailure(error: RouteFailure, staticRoute: CliErrorCode): CliFailure {
  const code: CliErrorCode =
    error.code === 'bad_input' ? 'usage'
    : error.code === 'unknown_route' || error.code === 'gateway_not_running' ? 'not_found'
    : error.code === 'static_route' ? staticRoute
    : error.code === 'gateway_unreachable' ? 'io_error'
    : error.code;
  return new CliFailure(code, error.message);
}

export async function webhookSubscribe(name: string, options: SubscribeOptions): Promise<void> {
  const input: SubscribeInput = {
    name,
    events: list(options.events),
    ...(options.prompt !== undefined ? { prompt: options.prompt } : {}),
    ...(options.deliver !== undefined ? { deliver: options.deliver } : {}),
    deliverExtra: {},
    skills: list(options.skills),
    toolsets: list(options.toolsets),
    ...(options.secret !== undefined ? { secret: options.secret } : {}),
    ...(options.sandbox !== undefined ? { sandbox: options.sandbox } : {}),
    ...(options.sandboxNetwork !== undefined ? { sandboxNetwork: options.sandboxNetwork } : {}),
    ...(options.sandboxEnv !== undefined ? { sandboxEnv: list(options.sandboxEnv) } : {}),
  };
  // Checked before the home is opened: a bad name or flag touches nothing.
  const problem = checkSubscribeInput(input, flag);
  if (problem) throw cliFailure(problem, 'usage');
  const paths = await openHome();
  const { config } = await openConfig(paths);
  const result = await subscribeRoute(paths, config, { ...input, deliverExtra: parseDeliverExtra(options.deliverExtra ?? []) }, flag);
  if (!result.ok) throw cliFailure(result.error, 'usage');
  const { url, deliver } = result;
  if (options.json) {
    const { sandbox, sandbox_network, sandbox_env } = result.subscription;
    const sandboxJson = { ...(sandbox !== undefined ? { sandbox } : {}), ...(sandbox_network !== undefined ? { sandbox_network } : {}), ...(sandbox_env !== undefined ? { sandbox_env } : {}) };
    printJson({ name, url, updated: result.updated, events: result.subscription.events, deliver, ...sandboxJson, ...(result.secretShown ? { secret: result.secretShown } : {}) });
    return;
  }
  const lines = [
    `${result.updated ? 'updated' : 'subscribed'} ${name}: POST ${url}`,
    `  events: ${result.subscription.events.length > 0 ? result.subscription.events.join(', ') : 'all'}; deliver: ${deliver}`,
    `  sandbox: ${sandboxLine(result.subscription)}`,
  ];
  if (result.secretShown) lines.push(`  secret: ${result.secretShown}`, '  (shown once: put it in the code host\'s webhook settings now)');
  else if (result.updated && options.secret === undefined) lines.push('  secret: unchanged');
  if (!config.platforms.webhook.enabled) lines.push('  note: the webhook platform is off; turn it on with iris config set platforms.webhook.enabled true');
  printData(lines.join('\n'));
}

export async function webhookList(options: { json?: boolean }): Promise<void> {
  const paths = await openHome();
  const { config, subscriptions } = await loadRoutes(paths);
  const rows = routeRows(config, subscriptions, await listenerBase(paths, config)).map((route) => ({
    name: route.name,
    source: route.source,
    enabled: route.enabled,
    events: route.events,
    deliver: route.deliver,
    url: route.url,
    has_secret: route.has_secret,
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
  const result = await removeSubscription(paths, config, name);
  if (!result.ok) throw cliFailure(result.error, 'not_found');
  if (options.json) printJson({ removed: name });
  else printData(`removed ${name}`);
}

export async function webhookTest(name: string, options: { payload?: string; event?: string; json?: boolean }): Promise<number> {
  nameArgument('route', name);
  const paths = await openHome();
  const { config, subscriptions } = await loadRoutes(paths);
  const sent = await sendTestEvent(
    paths,
    config,
    subscriptions,
    name,
    { ...(options.event !== undefined ? { event: options.event } : {}), ...(options.payload !== undefined ? { payload: { text: options.payload } } : {}) },
    flag,
  );
  if (!sent.ok) throw cliFailure(sent.error, 'usage');
  const { url, event, sample, deliveryId, status, text } = sent;
  if (options.json) printJson({ status, body: answerBody(text), delivery_id: deliveryId, event, sample: sample?.description ?? null });
  else printData(`POST ${url} (event ${event}, delivery ${deliveryId})\n${status} ${text}${sample ? `\n${sampleNote(sample)}` : ''}`);
  return status >= 200 && status < 300 ? EXIT.ok : EXIT.failure;
}

function sampleNote(sample: SamplePayload): string {
  return `sent ${sample.description}; send your own with --payload '<json>' (and --event <name>), then see iris webhook deliveries`;
}

export type DeliveriesOptions = { route?: string; state?: string; limit?: string; show?: string; json?: boolean };

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
  const state = options.state === undefined ? undefined : parseDeliveryState(options.state);
  if (state !== undefined && !state.ok) throw new CliFailure('usage', `--${state.error}`);
  const paths = await openHome();
  const store = await openStoreAt(await cliStoreTarget(paths)).catch((err: Error) => {
    throw new CliFailure('io_error', err.message);
  });
  try {
    if (showId !== undefined) {
      const record = await store.webhooks.get(showId);
      if (!record) throw new CliFailure('not_found', `no webhook event #${showId} (iris webhook deliveries lists them)`);
      // The dashboard's Deliveries view shows the same story (redacted, with the prompt).
      const detail = await deliveryStory(store.prFindings, record);
      if (options.json) printJson(detail);
      else printData(deliveryDetailText(detail));
      return;
    }
    const rows = (await store.webhooks.list({ ...(options.route ? { route: options.route } : {}), ...(state ? { state: state.state } : {}), limit })).map(deliveryListRow);
    if (options.json) return printJson(rows);
    if (rows.length === 0) return printData(options.route || state ? `no events${options.route ? ` for route ${options.route}` : ''}${state ? ` in state ${state.state}` : ''}` : 'no webhook events yet');
    printData(rows.map(deliveryRowText).join('\n'));
  } finally {
    await store.close();
  }
}
