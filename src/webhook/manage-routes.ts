// Managing webhook routes, shared by `iris webhook subscribe|list|remove|test` and the dashboard's
// Webhooks page, so the two can never disagree: subscribe (a new secret, shown once; a second
// subscribe updates the route and keeps its secret), the route list as plain rows, remove, and a
// signed test event for this home's running gateway. Expected failures come back as values; the
// caller words nothing but the name of its own fields (`--deliver` for the CLI, `deliver` for JSON).
import { randomBytes, randomUUID } from 'node:crypto';
import type { HomePaths } from '../config/home.js';
import { fail, type ConfigErrorCode, type Result } from '../config/result.js';
import { DELIVER_TARGETS, type Config, type WebhookRoute } from '../config/schema.js';
import { findGateway, listenerBaseUrl } from '../gateway/address-file.js';
import { platformRouteProblem, platformTargets } from '../platforms/delivery-target.js';
import { checkName } from '../security/names.js';
import { ROUTE_SANDBOX_MODES } from '../domain/sandbox-modes.js';
import { routeProblems } from './route-checks.js';
import { resolveRoutes, type ResolvedRoute, type RouteSource } from './routes.js';
import { samplePayloadFor, type SamplePayload } from './sample-payloads.js';
import { updateSubscriptions, type Subscription } from './subscriptions.js';
import { signBody } from './verify.js';

export type RouteFailureCode =
  | ConfigErrorCode
  /** A bad name, deliver target, secret or payload: nothing was read or written. */
  | 'bad_input'
  | 'unknown_route'
  /** The name is a config.yaml route, which only config.yaml changes. */
  | 'static_route'
  | 'gateway_not_running'
  | 'gateway_unreachable';

export type RouteFailure = { readonly code: RouteFailureCode; readonly message: string };

const refuse = (code: RouteFailureCode, message: string): { ok: false; error: RouteFailure } => ({ ok: false, error: { code, message } });

/** How the caller names its own inputs in a message: `--deliver` on the command line, `deliver` in a JSON body. */
export type FieldLabel = (field: 'deliver' | 'secret' | 'payload' | 'sandbox' | 'sandbox_env') => string;

export type SubscribeInput = {
  readonly name: string;
  readonly events: readonly string[];
  readonly prompt?: string;
  /** Absent: `log`. */
  readonly deliver?: string;
  readonly deliverExtra: Readonly<Record<string, string | number>>;
  readonly skills: readonly string[];
  readonly toolsets: readonly string[];
  /** Absent: a new random one (or, for an existing subscription, the one it has). */
  readonly secret?: string;
  /**
   * The route's runs in the sandbox (`bubblewrap`) or not (`off`), its network inside it, and the
   * environment variables passed in by name. Absent: what the subscription had (a new one follows
   * tools.terminal).
   */
  readonly sandbox?: string;
  readonly sandboxNetwork?: boolean;
  readonly sandboxEnv?: readonly string[];
};

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export type Subscribed = {
  readonly name: string;
  readonly url: string;
  readonly updated: boolean;
  readonly deliver: WebhookRoute['deliver'];
  readonly subscription: Subscription;
  /** The new secret, only when one was generated for a new subscription: shown once, never again. */
  readonly secretShown: string | undefined;
};

/** Pure: the checks that need no file (the name rule, skill names, the deliver target, a blank secret). */
export function checkSubscribeInput(input: SubscribeInput, label: FieldLabel): RouteFailure | undefined {
  const name = checkName('route', input.name);
  if (!name.ok) return { code: 'bad_input', message: name.error };
  // The route's skills become folder names when a run loads one.
  for (const skill of input.skills) {
    const checked = checkName('skill', skill);
    if (!checked.ok) return { code: 'bad_input', message: checked.error };
  }
  const deliver = input.deliver ?? 'log';
  if (!(DELIVER_TARGETS as readonly string[]).includes(deliver)) {
    return { code: 'bad_input', message: `${label('deliver')} must be one of ${DELIVER_TARGETS.join(', ')} (got "${deliver}")` };
  }
  if (input.secret !== undefined && input.secret.trim() === '') {
    return { code: 'bad_input', message: `${label('secret')} cannot be empty (leave it out to get a random one)` };
  }
  if (input.sandbox !== undefined && !(ROUTE_SANDBOX_MODES as readonly string[]).includes(input.sandbox)) {
    return { code: 'bad_input', message: `${label('sandbox')} must be one of ${ROUTE_SANDBOX_MODES.join(', ')} (got "${input.sandbox.slice(0, 40)}")` };
  }
  const badEnv = input.sandboxEnv?.find((name) => !ENV_NAME.test(name));
  if (badEnv !== undefined) return { code: 'bad_input', message: `${label('sandbox_env')} takes environment variable names (got "${badEnv.slice(0, 40)}")` };
  return undefined;
}

/** The sandbox settings given, else those the subscription had; none at all: tools.terminal decides. */
function sandboxFields(input: SubscribeInput, existing: Subscription | undefined): Pick<WebhookRoute, 'sandbox' | 'sandbox_network' | 'sandbox_env'> {
  const sandbox = (input.sandbox as WebhookRoute['sandbox']) ?? existing?.sandbox;
  const network = input.sandboxNetwork ?? existing?.sandbox_network;
  const env = input.sandboxEnv ?? existing?.sandbox_env;
  return {
    ...(sandbox !== undefined ? { sandbox } : {}),
    ...(network !== undefined ? { sandbox_network: network } : {}),
    ...(env !== undefined ? { sandbox_env: [...env] } : {}),
  };
}

/** `bubblewrap (network off; env GH_TOKEN)`, or what decides when the route says nothing. */
export function sandboxLine(route: Pick<WebhookRoute, 'sandbox' | 'sandbox_network' | 'sandbox_env'>): string {
  const details = [
    ...(route.sandbox_network !== undefined ? [`network ${route.sandbox_network ? 'on' : 'off'}`] : []),
    ...(route.sandbox_env !== undefined && route.sandbox_env.length > 0 ? [`env ${route.sandbox_env.join(', ')}`] : []),
  ];
  const mode = route.sandbox ?? 'as tools.terminal.sandbox';
  return details.length > 0 ? `${mode} (${details.join('; ')})` : mode;
}

function staticRoute(config: Readonly<Config>, name: string): boolean {
  return Object.hasOwn(config.platforms.webhook.extra.routes, name);
}

/** Where routes are served: this home's running gateway where it listens, else the configured listener. */
export async function listenerBase(paths: HomePaths, config: Readonly<Config>): Promise<string> {
  return listenerBaseUrl(await findGateway(paths, config.platforms.webhook.extra), config.platforms.webhook.extra);
}

/** Adds or updates a subscription (under the file's lock); a running gateway serves it at once. */
export async function subscribeRoute(paths: HomePaths, config: Readonly<Config>, input: SubscribeInput, label: FieldLabel): Promise<Result<Subscribed, RouteFailure>> {
  const problem = checkSubscribeInput(input, label);
  if (problem) return { ok: false, error: problem };
  const { name } = input;
  if (staticRoute(config, name)) {
    return refuse('static_route', `a route named "${name}" is defined in config.yaml (platforms.webhook.extra.routes.${name}); it would win over a subscription, so pick another name`);
  }
  const deliver = (input.deliver ?? 'log') as WebhookRoute['deliver'];
  const generated = input.secret === undefined ? randomBytes(32).toString('hex') : undefined;
  type Saved = { updated: boolean; secretShown: string | undefined; subscription: Subscription };
  const result = await updateSubscriptions<Saved>(paths, (entries, current): Result<Saved> => {
    const existing = current.subscriptions[name];
    const subscription: Subscription = {
      enabled: true,
      events: [...input.events],
      filters: [],
      ...(input.prompt !== undefined ? { prompt: input.prompt } : {}),
      skills: [...input.skills],
      toolsets: [...input.toolsets],
      deliver,
      deliver_extra: { ...input.deliverExtra },
      session: existing?.session ?? 'per_event',
      commands: existing?.commands ?? false,
      coalesce_seconds: existing?.coalesce_seconds ?? 30,
      ...sandboxFields(input, existing),
      // Subscribing again updates the route and keeps its secret, unless a new one is given.
      secret: input.secret?.trim() ?? existing?.secret ?? generated!,
      created_at: existing?.created_at ?? new Date().toISOString(),
    };
    const route: ResolvedRoute = { ...subscription, name, source: 'subscription' };
    const problems = routeProblems(route, config.platforms.webhook.extra.host);
    const platformProblem = platformRouteProblem(route, platformTargets(config));
    if (platformProblem) problems.push(platformProblem);
    if (problems.length > 0) return fail('invalid_value', problems.join('; '));
    entries[name] = subscription;
    return { ok: true, updated: existing !== undefined, secretShown: input.secret === undefined && existing === undefined ? subscription.secret : undefined, subscription };
  });
  if (!result.ok) return result;
  const url = `${await listenerBase(paths, config)}/webhooks/${name}`;
  return { ok: true, name, url, updated: result.updated, deliver, subscription: result.subscription, secretShown: result.secretShown };
}

export type RouteRow = {
  readonly name: string;
  readonly source: RouteSource;
  readonly enabled: boolean;
  readonly events: readonly string[];
  readonly filters: ResolvedRoute['filters'];
  readonly deliver: ResolvedRoute['deliver'];
  readonly deliver_extra: ResolvedRoute['deliver_extra'];
  readonly url: string;
  /** Whether the route has an effective secret; the secret itself never leaves the server. */
  readonly has_secret: boolean;
};

/** Pure: every route (config.yaml first, then subscriptions) as a row without its secret. */
export function routeRows(config: Readonly<Config>, subscriptions: Readonly<Record<string, WebhookRoute>>, base: string): RouteRow[] {
  return [...resolveRoutes(config, subscriptions).routes.values()].map((route) => ({
    name: route.name,
    source: route.source,
    enabled: route.enabled,
    events: route.events,
    filters: route.filters,
    deliver: route.deliver,
    deliver_extra: route.deliver_extra,
    url: `${base}/webhooks/${route.name}`,
    has_secret: route.secret !== '',
  }));
}

export async function removeSubscription(paths: HomePaths, config: Readonly<Config>, name: string): Promise<Result<{ removed: string }, RouteFailure>> {
  const checked = checkName('route', name);
  if (!checked.ok) return refuse('bad_input', checked.error);
  // The refusal is decided under the lock, from the freshest file; the lock's own result type only carries config codes.
  let refusal: RouteFailure | undefined;
  const result = await updateSubscriptions<{ removed: string }>(paths, (entries): Result<{ removed: string }> => {
    if (!Object.hasOwn(entries, name)) {
      refusal = staticRoute(config, name)
        ? { code: 'static_route', message: `"${name}" is a config.yaml route, not a subscription; remove it from platforms.webhook.extra.routes` }
        : { code: 'unknown_route', message: `no subscription named "${name}" (iris webhook list shows them)` };
      return fail('invalid_key', refusal.message);
    }
    delete entries[name];
    return { ok: true, removed: name };
  });
  if (!result.ok) return { ok: false, error: refusal ?? result.error };
  return result;
}

/** A test event's payload as the caller has it: JSON text (a flag) or a parsed value (a JSON body); absent: a sample. */
export type TestPayload = { readonly text: string } | { readonly value: unknown };

export type TestSent = {
  readonly url: string;
  readonly status: number;
  /** The gateway's answer as text. */
  readonly text: string;
  readonly deliveryId: string;
  readonly event: string;
  /** The sample sent when no payload was given. */
  readonly sample: SamplePayload | undefined;
};

function payloadObject(payload: TestPayload, label: FieldLabel): Result<{ value: unknown }, RouteFailure> {
  let value: unknown;
  if ('text' in payload) {
    try {
      value = JSON.parse(payload.text);
    } catch {
      return refuse('bad_input', `${label('payload')} is not valid JSON`);
    }
  } else {
    value = payload.value;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return refuse('bad_input', `${label('payload')} must be a JSON object`);
  return { ok: true, value };
}

/**
 * Signs an event with the subscription's secret and posts it to this home's own gateway, where it
 * said it listens: never to whatever else answers on the configured port, and nothing at all when
 * the gateway is not running.
 */
export async function sendTestEvent(
  paths: HomePaths,
  config: Readonly<Config>,
  subscriptions: Readonly<Record<string, Subscription>>,
  name: string,
  options: { readonly event?: string; readonly payload?: TestPayload },
  label: FieldLabel,
): Promise<Result<TestSent, RouteFailure>> {
  const checked = checkName('route', name);
  if (!checked.ok) return refuse('bad_input', checked.error);
  if (staticRoute(config, name)) {
    return refuse('static_route', `"${name}" is a config.yaml route; iris webhook test works for subscriptions only (send a signed event from the code host, or use a subscription)`);
  }
  const subscription = Object.hasOwn(subscriptions, name) ? subscriptions[name] : undefined;
  if (!subscription) return refuse('unknown_route', `no subscription named "${name}" (iris webhook list shows them)`);
  const event = options.event ?? subscription.events[0] ?? 'test';
  // A realistic sample of the event, so the route's prompt and deliver_extra find their fields.
  const sample = options.payload === undefined ? samplePayloadFor(event) : undefined;
  let payload: unknown = sample?.payload;
  if (options.payload !== undefined) {
    const parsed = payloadObject(options.payload, label);
    if (!parsed.ok) return parsed;
    payload = parsed.value;
  }
  const body = JSON.stringify(payload);
  const deliveryId = `test-${randomUUID()}`;
  const gateway = await findGateway(paths, config.platforms.webhook.extra);
  if (gateway.state !== 'running') {
    return refuse('gateway_not_running', `this home's gateway is not running (${gateway.why}), so nothing was sent; start it with iris gateway start`);
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
    return refuse('gateway_unreachable', `cannot reach this home's gateway (pid ${gateway.pid}) at ${url}${cause ? ` (${cause})` : ''}; see iris gateway status`);
  }
  return { ok: true, url, status: response.status, text: await response.text(), deliveryId, event, sample };
}

/** The gateway's answer as JSON when it is JSON, else as its text. */
export function answerBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
