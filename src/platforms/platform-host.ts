// The chat platforms inside the gateway: an adapter per enabled platform, the sink that stores what
// they receive, the runner that answers, and the outbox drain that sends. Also what `iris gateway
// status` reads: each platform's connection state, written to gateway.platforms.json on change.
// A listener process only receives (adapters started, the sink); a worker only answers and sends
// (adapters made but never started: sending needs no receiving loop, as `iris send` shows).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Env, HomePaths } from '../config/home.js';
import type { Config } from '../config/schema.js';
import { errorMessage } from '../domain/error-message.js';
import { rotationOf } from '../log/rotation.js';
import type { RoutingDeps } from '../routing/call-model.js';
import type { Store } from '../store/types.js';
import { configId } from './config-id.js';
import type { McpPool } from '../agent/tools/mcp/pool.js';
import { createConversationRunner } from './conversation-runner.js';
import { createInboundSink, type PlatformAccessSettings } from './inbound-sink.js';
import { createOutboxDrain } from './outbox-drain.js';
import { processIsAlive } from '../domain/process-alive.js';
import { WORK_POLL_MS } from '../domain/gateway-role.js';
import { subscribeWakes } from '../runtime/wakes.js';
import { createPlatformAdapter, enabledPlatforms } from './registry.js';
import { removePlatformStates, writePlatformStates } from './state-file.js';
import type { InboundSink, PlatformAdapter, PlatformLog, PlatformName } from './types.js';

export type PlatformHostDeps = {
  readonly paths: HomePaths;
  readonly env: Env;
  readonly config: Readonly<Config>;
  readonly store: Store;
  readonly routing: RoutingDeps;
  /** The gateway's MCP connections, kept across runs. */
  readonly mcpPool?: McpPool;
  readonly log: PlatformLog;
  readonly nowMs?: () => number;
  /** Conversations answered at once (across platforms). */
  readonly concurrency: number;
  readonly onConnection?: (platform: PlatformName, connected: boolean) => void;
  readonly onOutbox?: (platform: PlatformName, outcome: 'sent' | 'retry' | 'failed') => void;
  /** A chat became its platform's home channel (/sethome). */
  readonly onHomeChannel?: (platform: PlatformName, chatId: string) => void;
  /** Test hook: the outbox's pauses between tries. */
  readonly retryMs?: readonly number[];
  /** Which halves run here (the gateway's role); absent: both. */
  readonly parts?: { readonly receives: boolean; readonly works: boolean };
};

const STATE_CHECK_EVERY_MS = 1_000;

export type PlatformHost = Awaited<ReturnType<typeof startPlatformHost>>;

export async function startPlatformHost(deps: PlatformHostDeps) {
  const { log, store, paths } = deps;
  const nowMs = deps.nowMs ?? Date.now;
  const adapters = new Map<PlatformName, PlatformAdapter>();
  for (const name of enabledPlatforms(deps.config)) {
    const cursor = { load: () => store.platforms.getCursor(name), save: (value: string) => store.platforms.setCursor(name, value) };
    adapters.set(name, await createPlatformAdapter(name, { config: deps.config, env: deps.env, log, cursor }));
  }
  const receives = deps.parts?.receives ?? true;
  const works = deps.parts?.works ?? true;
  const drain = works ? createOutboxDrain({ store, adapters, log, nowMs, isAlive: processIsAlive, ...(deps.retryMs ? { retryMs: deps.retryMs } : {}), ...(deps.onOutbox ? { onOutcome: deps.onOutbox } : {}) }) : undefined;
  const runner = works
    ? createConversationRunner({ paths, env: deps.env, store, routing: deps.routing, log, adapters, concurrency: deps.concurrency, ...(deps.mcpPool ? { mcpPool: deps.mcpPool } : {}), onReplies: () => drain?.wake(), auditRotation: rotationOf(deps.config.logging), ...(deps.onHomeChannel ? { onHomeChannel: deps.onHomeChannel } : {}) })
    : undefined;
  const settings = (platform: PlatformName): PlatformAccessSettings => {
    type Section = { extra: { allowed_users: ReadonlyArray<string | number>; owners?: ReadonlyArray<string | number>; allow_all_users: boolean; group_sessions_per_user: boolean } };
    const extra = (deps.config.platforms as Record<string, Section | undefined>)[platform]?.extra;
    // YAML may give a bare number; ids are compared as the platform's strings (config-id.ts).
    const ids = (list: ReadonlyArray<string | number> | undefined) => (list ?? []).map((id) => configId(platform, id));
    return { allowed_users: ids(extra?.allowed_users), owners: ids(extra?.owners), allow_all_users: extra?.allow_all_users ?? false, group_sessions_per_user: extra?.group_sessions_per_user ?? true };
  };
  // In a listener alone, what is stored here is answered and sent by a worker: woken by the
  // store (PostgreSQL's NOTIFY) or its poll.
  const sink: InboundSink = createInboundSink({ store, log, settings, adapters, nowMs, onQueued: () => runner?.wake(), onReplies: () => drain?.wake() });

  if (receives) {
    for (const name of adapters.keys()) {
      if (settings(name).allow_all_users) log.warn({ platform: name }, `${name}: allow_all_users is on, so anyone who finds the bot can use the agent (and its tools)`);
    }
  }

  // Connection states, written when one changes (by the process that receives: a worker's
  // adapters never connect, and must not hide the listener's states).
  const since = new Map<PlatformName, { connected: boolean; detail: string; since: number }>();
  let lastWritten = '';
  const publishStates = async () => {
    for (const [name, adapter] of adapters) {
      const state = adapter.state();
      const before = since.get(name);
      if (!before || before.connected !== state.connected || before.detail !== state.detail) {
        since.set(name, { ...state, since: nowMs() });
        if (!before || before.connected !== state.connected) {
          deps.onConnection?.(name, state.connected);
          if (state.connected) log.info({ platform: name, detail: state.detail }, `${name} connected`);
          else log.warn({ platform: name, detail: state.detail }, `${name} not connected: ${state.detail}`);
        }
      }
    }
    const platforms = [...since].map(([name, state]) => ({ name, ...state }));
    const text = JSON.stringify(platforms);
    if (text === lastWritten) return;
    lastWritten = text;
    await writePlatformStates(paths, { pid: process.pid, platforms });
  };
  const publish = () => void publishStates().catch((err: unknown) => log.warn({ err: errorMessage(err) }, 'could not write gateway.platforms.json'));

  // A worker's start takes back what dead workers left (on PostgreSQL only theirs, so every
  // worker may do it); a listener's does not.
  const recoveredInbound = works ? await store.platforms.recoverInbound() : 0;
  const recoveredOutbox = drain ? await drain.start() : 0;
  const unsubscribe = works ? await subscribeWakes(store, [['inbound', () => runner?.wake()], ['outbox', () => drain?.wake()]], log) : async () => {};
  let stateTimer: NodeJS.Timeout | undefined;
  if (receives) {
    for (const [name, adapter] of adapters) {
      try {
        await adapter.start(sink);
      } catch (err) {
        log.error({ platform: name, err: errorMessage(err) }, `${name} could not start; its messages are not received`);
      }
    }
    await publishStates().catch((err: unknown) => log.warn({ err: errorMessage(err) }, 'could not write gateway.platforms.json'));
    stateTimer = setInterval(publish, STATE_CHECK_EVERY_MS);
    stateTimer.unref();
  }
  runner?.wake();
  runner?.poll(WORK_POLL_MS);

  return {
    adapters: adapters as ReadonlyMap<PlatformName, PlatformAdapter>,
    /** For the gateway's listener: an adapter's own inbound path (SMS). */
    httpRoutes: receives ? [...adapters.values()].flatMap(({ http }) => (http ? [{ path: http.path, handle: (request: IncomingMessage, response: ServerResponse) => http.handle(request, response, sink), sink }] : [])) : [],
    recovered: { inbound: recoveredInbound, outbox: recoveredOutbox },
    /** The outbox has new work (a webhook delivery was enqueued). */
    wakeOutbox: () => drain?.wake(),
    /** The receiving adapters' states (none in a worker alone: it receives nothing). */
    states: () => (receives ? [...adapters].map(([name, adapter]) => ({ name, ...adapter.state() })) : []),
    async stop(graceMs: number): Promise<{ settled: boolean }> {
      clearInterval(stateTimer);
      await unsubscribe().catch(() => {});
      // Receiving stops first: nothing new is stored while the runs wind down.
      await Promise.allSettled([...adapters.values()].map((adapter) => adapter.stop()));
      const settled = runner ? await runner.stop(graceMs) : { settled: true };
      await drain?.stop();
      if (receives) {
        for (const name of adapters.keys()) deps.onConnection?.(name, false);
        await removePlatformStates(paths).catch(() => {});
      }
      return settled;
    },
  };
}
