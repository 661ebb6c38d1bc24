// `iris doctor`'s order of work: gather facts at the edges (stat, config and .env reads, the live
// probes, gh, a test bind, a read-only store open), hand them to the pure checks, and collect the
// results in a fixed order. Reads only: never creates the home, narrows a mode or migrates state.db.
// The slow parts (model probes, the identity token, gh, the bind, the chat platforms) run side by side.
import { loadOAuthView, type OAuthView } from '../auth/view.js';
import { effectiveEnv, readEnvFile } from '../config/env-file.js';
import { resolveHomePaths, type Env, type HomePaths } from '../config/home.js';
import type { Config } from '../config/schema.js';
import { loadConfig } from '../config/store.js';
import { gatewayPidPath, readGatewayStatus } from '../gateway/pid-file.js';
import { enabledPlatformNames } from '../platforms/delivery-target.js';
import { isRunnablePlatform } from '../platforms/registry.js';
import type { PlatformCheck } from '../platforms/types.js';
import type { PlatformName } from '../domain/platforms.js';
import { SCHEMA_VERSION } from '../store/migrations.js';
import { resolveRoutes } from '../webhook/routes.js';
import { loadSubscriptions } from '../webhook/subscriptions.js';
import { checkConfig, checkEnvFile, checkMainModel } from './checks/config.js';
import { checkAuxSlots, resolveAuxSlots } from './checks/slots.js';
import { checkGitlab } from './checks/gitlab.js';
import { takesGithubEvents, takesGitlabEvents } from '../webhook/pr-event.js';
import { checkGh } from './checks/gh.js';
import { checkHome, checkPermissions } from './checks/home.js';
import { checkIdentityToken, checkIdentityVariables } from './checks/identity.js';
import { checkPlatformAccess, checkPlatformOwners, checkPlatformProbe, checkPlatformSetup, platformProbeDescription, readPlatformSetup, type PlatformSetup } from './checks/platforms.js';
import { checkCredential, checkEndpoint, checkProbe, isProbeable } from './checks/providers.js';
import { checkStore, checkStoreSpace } from './checks/store.js';
import { checkDiskSpace } from './checks/disk.js';
import { readDiskSpace } from '../config/disk-space-read.js';
import { checkWebhook } from './checks/webhook.js';
import { checkDashboard } from './checks/dashboard.js';
import { checkSandbox } from './checks/sandbox.js';
import { findBwrap } from '../sandbox/find-bwrap.js';
import { readDashboardAddress } from '../dashboard/address-file.js';
import { PASSWORD_HASH_ENV } from '../dashboard/auth/password-hash.js';
import { isLoopbackHost } from '../webhook/route-checks.js';
import { readHomeFacts } from './home-facts.js';
import { probePlatform } from './platform-probes.js';
import type { LiveProbe } from './live-probes.js';
import { findProvidersInUse, type ProviderUse } from './providers-in-use.js';
import { readPgStoreFacts, readStoreFacts } from './store-probe.js';
import { storeTarget } from '../store/open-store.js';
import { PG_SCHEMA_VERSION } from '../store/pg/pg-migrations.js';
import { readGhFacts, tryBind, tryBwrap } from './system-probes.js';
import { buildReport, fail, type CheckResult, type DoctorReport } from './types.js';

export type DoctorOptions = {
  /** Skip every network probe (models, identity token); local checks still run. */
  readonly offline: boolean;
  readonly processEnv: Env;
  /** How long the identity-token probe may take (resolveIdentityTimeout: 10 s unless told). */
  readonly identityTimeoutMs: number;
  /** Told what the live probes check, just before they start (a terminal shows it while it waits). */
  readonly onProbing?: (what: readonly string[]) => void;
};

/** What one provider's live probe checks, in words: `openrouter: GET https://…/models`. */
export function probeDescription(use: ProviderUse): string {
  const models = use.endpoint.ok && isProbeable(use) ? `GET ${use.endpoint.modelsUrl}` : undefined;
  if (use.credential.kind === 'identity_token') return `${use.id}: identity token${models ? `, then ${models}` : ''}`;
  return `${use.id}: ${models ?? 'nothing to probe'}`;
}

/** Enabled forge_comment routes, from config.yaml and the subscriptions: those of GitHub's events (gh) and of GitLab's. */
async function forgeCommentRoutes(config: Readonly<Config>, paths: HomePaths): Promise<{ github: string[]; gitlab: string[] }> {
  const loaded = await loadSubscriptions(paths);
  const { routes } = resolveRoutes(config, loaded.ok ? loaded.subscriptions : {});
  const posting = [...routes.values()].filter((r) => r.enabled && r.deliver === 'forge_comment');
  return { github: posting.filter((r) => takesGithubEvents(r.events)).map((r) => r.name), gitlab: posting.filter((r) => takesGitlabEvents(r.events)).map((r) => r.name) };
}

async function webhookCheck(config: Readonly<Config>, paths: HomePaths): Promise<CheckResult | undefined> {
  const { enabled, extra } = config.platforms.webhook;
  if (!enabled) return undefined;
  const gateway = await readGatewayStatus(paths).catch(() => ({ state: 'bad_pid_file', pid_file: gatewayPidPath(paths) }) as const);
  const bind = gateway.state !== 'running' && extra.port !== 0 ? await tryBind(extra.host, extra.port) : undefined;
  return checkWebhook(gateway, extra.host, extra.port, bind);
}

async function dashboardCheck(config: Readonly<Config>, env: Env, paths: HomePaths): Promise<CheckResult | undefined> {
  const address = await readDashboardAddress(paths);
  return checkDashboard({
    running: address ? { host: address.host, port: address.port, loopback: isLoopbackHost(address.host), signIn: address.sign_in } : undefined,
    passwordSet: Boolean(env[PASSWORD_HASH_ENV]?.trim()),
    proxy: config.dashboard.trusted_proxy,
  });
}

/** Which runs will be sandboxed (src/sandbox/settings.ts), said for people; undefined when none. */
function sandboxedRuns(config: Readonly<Config>, routeModes: readonly (string | undefined)[]): string | undefined {
  const mode = config.tools.terminal.sandbox;
  if (mode === 'bubblewrap') return 'all runs (tools.terminal.sandbox: bubblewrap)';
  if (mode === 'auto' && (config.platforms.webhook.enabled || enabledPlatformNames(config).length > 0)) return 'webhook and chat runs';
  if (config.platforms.webhook.enabled && routeModes.includes('bubblewrap')) return 'routes with sandbox: bubblewrap';
  return undefined;
}

async function sandboxCheck(config: Readonly<Config>, env: Env, paths: HomePaths): Promise<CheckResult | undefined> {
  const loaded = await loadSubscriptions(paths);
  const { routes } = resolveRoutes(config, loaded.ok ? loaded.subscriptions : {});
  const neededFor = sandboxedRuns(config, [...routes.values()].map((route) => route.sandbox));
  const bwrap = findBwrap(env.PATH);
  const trial = neededFor && bwrap ? await tryBwrap(bwrap) : undefined;
  return checkSandbox({ neededFor, bwrap, trial });
}

async function liveProbes(uses: readonly ProviderUse[], env: Env, identityTimeoutMs: number): Promise<LiveProbe[]> {
  const { probeProvider } = await import('./live-probes.js');
  return Promise.all(uses.map((use) => probeProvider(use, env, identityTimeoutMs)));
}

function providerChecks(use: ProviderUse, env: Env, probe: LiveProbe | undefined, identityTimeoutMs: number): CheckResult[] {
  const checks = [checkCredential(use)];
  const endpoint = checkEndpoint(use);
  if (endpoint) checks.push(endpoint);
  if (use.credential.kind === 'identity_token') {
    checks.push(checkIdentityVariables(env));
    if (probe?.token) checks.push(checkIdentityToken(probe.token, use.credential.scope, identityTimeoutMs));
  }
  if (probe?.models) checks.push(checkProbe(use, probe.models));
  return checks;
}

/** The enabled platforms' checks, in config order; `probes` holds the live results (none --offline). */
function platformChecks(setups: readonly PlatformSetup[], probes: ReadonlyMap<PlatformName, PlatformCheck>): CheckResult[] {
  return setups.flatMap((setup) => {
    const who = [checkPlatformAccess(setup), checkPlatformOwners(setup)].filter((check) => check !== undefined);
    const probe = probes.get(setup.name);
    return [checkPlatformSetup(setup), ...who, ...(probe ? [checkPlatformProbe(setup.name, probe)] : [])];
  });
}

async function probePlatforms(names: readonly PlatformName[], config: Readonly<Config>, env: Env): Promise<Map<PlatformName, PlatformCheck>> {
  return new Map(await Promise.all(names.map(async (name) => [name, await probePlatform(name, config, env)] as const)));
}

async function configuredChecks(config: Readonly<Config>, env: Env, oauth: OAuthView, options: DoctorOptions, paths: HomePaths): Promise<CheckResult[]> {
  const uses = findProvidersInUse(config, env, options.processEnv, oauth);
  const forgeRoutes = await forgeCommentRoutes(config, paths);
  const ghRoutes = forgeRoutes.github;
  const identityTimeout = options.identityTimeoutMs;
  const platforms = enabledPlatformNames(config).map((name) => readPlatformSetup(name, config, env, isRunnablePlatform(name)));
  // A platform that lacks what it needs is not probed: its settings check says what to set.
  const probedPlatforms = options.offline ? [] : platforms.filter((p) => p.runnable && p.missing.length === 0).map((p) => p.name);
  if (!options.offline) {
    const probed = uses.filter((use) => use.credential.kind === 'identity_token' || isProbeable(use));
    const what = [...probed.map(probeDescription), ...probedPlatforms.map((name) => platformProbeDescription(name, config))];
    if (what.length > 0) options.onProbing?.(what);
  }
  const [probes, gh, webhook, platformProbes, dashboard, sandbox] = await Promise.all([
    options.offline ? undefined : liveProbes(uses, env, identityTimeout),
    ghRoutes.length > 0 ? readGhFacts(env) : undefined,
    webhookCheck(config, paths),
    probePlatforms(probedPlatforms, config, env),
    dashboardCheck(config, env, paths),
    sandboxCheck(config, env, paths),
  ]);
  return [
    checkMainModel(config),
    ...checkAuxSlots(resolveAuxSlots(config, env, oauth)),
    ...uses.flatMap((use, i) => providerChecks(use, env, probes?.[i], identityTimeout)),
    ...(gh ? [checkGh(gh, ghRoutes)] : []),
    ...(forgeRoutes.gitlab.length > 0 ? [checkGitlab(env, config.gitlab.api_base, forgeRoutes.gitlab)] : []),
    ...(webhook ? [webhook] : []),
    ...platformChecks(platforms, platformProbes),
    ...(dashboard ? [dashboard] : []),
    ...(sandbox ? [sandbox] : []),
  ];
}

export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const paths = resolveHomePaths(options.processEnv);
  const home = await readHomeFacts(paths);
  const checks: CheckResult[] = [checkHome(home.home)];
  if (home.home.kind === 'directory') checks.push(checkPermissions(home.paths));
  const disk = checkDiskSpace(paths.dir, await readDiskSpace(paths.dir));
  if (disk) checks.push(disk);

  const envFile = await readEnvFile(paths);
  if (!envFile.ok) checks.push(checkEnvFile(envFile.error.message, paths.envPath));
  const env = effectiveEnv(envFile.ok ? envFile.values : new Map(), options.processEnv);

  const loaded = await loadConfig(paths);
  checks.push(...checkConfig(loaded.ok ? loaded : { ok: false, path: paths.configPath, message: loaded.error.message }));
  const oauth = await loadOAuthView(paths);
  if (oauth.problem) checks.push(fail('auth_file', 'auth.json', oauth.problem, 'fix the file, or remove it and run iris auth add and iris auth login again'));
  if (loaded.ok) checks.push(...(await configuredChecks(loaded.config, env, oauth.view, options, paths)));
  const target = storeTarget(paths.statePath, env, loaded.ok ? loaded.config : undefined);
  const storeFacts = target.backend === 'postgres' ? await readPgStoreFacts(target.url) : await readStoreFacts(target.path);
  checks.push(checkStore(storeFacts, target.backend === 'postgres' ? PG_SCHEMA_VERSION : SCHEMA_VERSION));
  const space = checkStoreSpace(storeFacts);
  if (space) checks.push(space);
  return buildReport(checks);
}
