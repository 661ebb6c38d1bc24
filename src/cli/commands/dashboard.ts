// `iris dashboard [--host] [--port] [--no-open]`: the dashboard and its API on one port, with a
// new session token on every start, until Ctrl-C. A non-loopback --host needs a way to sign in (a
// password, a trusted proxy, or both: DECISIONS § Dashboard sign-in and roles), else it exits 2.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { hostname, networkInterfaces } from 'node:os';
import { effectiveEnv, readEnvFile } from '../../config/env-file.js';
import { PASSWORD_HASH_ENV, parsePasswordHash } from '../../dashboard/auth/password-hash.js';
import { exposureProblem, signInMode } from '../../dashboard/auth/sign-in.js';
import { resolveTrustedProxy, type TrustedProxy } from '../../dashboard/auth/trusted-proxy.js';
import { rotationOf } from '../../log/rotation.js';
import { createAuditLog } from '../../security/audit-log.js';
import { createDashboardHandler } from '../../dashboard/server.js';
import { removeDashboardAddress, writeDashboardAddress, type SignInKind } from '../../dashboard/address-file.js';
import { currentProfile } from '../../profiles/current.js';
import { builtUiDir } from '../../dashboard/static-files.js';
import { isLoopbackHost } from '../../webhook/route-checks.js';
import { printData, printError, printWarning } from '../console.js';
import type { Config } from '../../config/schema.js';
import { openConfig, openHome } from '../context.js';
import { CliFailure, EXIT } from '../exit-codes.js';

export type DashboardCliOptions = { host: string; port: string; open: boolean; allowRemote?: boolean };

function parsePort(text: string): number {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new CliFailure('usage', `--port must be a number from 0 to 65535 (got "${text}")`);
  return port;
}

/** Opens the URL in the desktop's browser; quietly does nothing where there is none. */
function openBrowser(url: string): void {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = execFile(opener, [url], { timeout: 10_000 }, () => {});
  child.on('error', () => {});
  child.unref();
}

/** The Host names a non-loopback dashboard answers by default: the machine's name and addresses. */
function machineHosts(): string[] {
  const addresses = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => entry.address));
  return [hostname(), ...addresses];
}

function trustedProxyOf(config: Readonly<Config>): TrustedProxy | undefined {
  const setting = config.dashboard.trusted_proxy;
  if (!setting) return undefined;
  const resolved = resolveTrustedProxy(setting);
  if (!resolved.ok) throw new CliFailure('usage', resolved.error);
  return resolved.proxy;
}

export async function dashboard(options: DashboardCliOptions): Promise<number> {
  const port = parsePort(options.port);
  const host = options.host.trim();
  const loopback = isLoopbackHost(host);
  const paths = await openHome();
  const { config } = await openConfig(paths); // config warnings, once
  const envFile = await readEnvFile(paths);
  if (!envFile.ok) throw new CliFailure(envFile.error.code, envFile.error.message);
  const storedHash = effectiveEnv(envFile.values, process.env)[PASSWORD_HASH_ENV]?.trim() || undefined;
  if (storedHash !== undefined && !parsePasswordHash(storedHash)) {
    throw new CliFailure('usage', `${PASSWORD_HASH_ENV} in ${paths.envPath} is not a password hash made by iris dashboard password; set the password again`);
  }
  const proxy = trustedProxyOf(config);
  const problem = exposureProblem(host, loopback, storedHash !== undefined, proxy !== undefined);
  if (problem) throw new CliFailure('usage', problem);
  if (options.allowRemote) printWarning('--allow-remote does nothing any more: a password or dashboard.trusted_proxy is what opens a non-loopback --host');
  const signIn = signInMode(loopback, storedHash, proxy);
  const audit = createAuditLog(paths, {
    rotation: rotationOf(config.logging),
    onError: (err) => printWarning(`logs/audit.log cannot be written: ${err instanceof Error ? err.message : String(err)}`),
  });
  const token = randomBytes(32).toString('base64url');
  const nonce = randomBytes(16).toString('base64');
  let boundPort = port;
  const dashboardHandler = createDashboardHandler({
    paths,
    processEnv: process.env,
    token,
    nonce,
    boundHost: host,
    port: () => boundPort,
    publicHosts: loopback ? config.dashboard.public_hosts : [...machineHosts(), ...config.dashboard.public_hosts],
    signIn,
    audit,
    uiDir: builtUiDir(),
    profile: currentProfile(),
  });
  const server = createServer(dashboardHandler.handle);
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  const listening = await new Promise<{ ok: true } | { ok: false; code: string; message: string }>((resolve) => {
    server.once('error', (err: NodeJS.ErrnoException) => resolve({ ok: false, code: err.code ?? '', message: err.message }));
    server.listen({ host, port }, () => resolve({ ok: true }));
  });
  if (!listening.ok) {
    printError(
      listening.code === 'EADDRINUSE'
        ? `port ${port} on ${host} is already in use; choose another with --port`
        : `cannot listen on ${host}:${port}: ${listening.message}`,
    );
    return EXIT.failure;
  }
  const address = server.address();
  boundPort = typeof address === 'object' && address ? address.port : port;
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const url = `http://${shown.includes(':') ? `[${shown}]` : shown}:${boundPort}/`;
  printData(`dashboard: ${url}`);
  const signInKind: SignInKind = signIn.kind === 'token' ? 'token' : signIn.passwordHash !== undefined && proxy ? 'password+proxy' : proxy ? 'proxy' : 'password';
  await writeDashboardAddress(paths, { pid: process.pid, host, port: boundPort, sign_in: signInKind }).catch((err: unknown) =>
    printWarning(`${paths.dir}/dashboard.address cannot be written (iris doctor will not see this dashboard): ${err instanceof Error ? err.message : String(err)}`),
  );
  if (signIn.kind === 'sign-in') {
    const ways = [signIn.passwordHash !== undefined ? 'the password' : '', proxy ? `the ${proxy.header} header from ${config.dashboard.trusted_proxy?.from.join(', ')}` : ''].filter(Boolean);
    printData(`sign-in: ${ways.join(' or ')}; every sign-in and change is written to ${paths.logsDir}/audit.log`);
  }
  printData('changes apply to new sessions; running sessions keep their model. Ctrl-C stops the dashboard.');
  if (options.open && process.stdout.isTTY) openBrowser(url);

  return new Promise<number>((resolve) => {
    const stop = () => {
      server.close(() => {
        void Promise.all([dashboardHandler.close(), removeDashboardAddress(paths).catch(() => {})]).then(() => resolve(EXIT.ok));
      });
      server.closeAllConnections();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
