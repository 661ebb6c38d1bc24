// `iris dashboard [--host] [--port] [--no-open] [--allow-remote]`: the Models page and its API on
// one port, with a new session token on every start, until Ctrl-C.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { createDashboardHandler } from '../../dashboard/server.js';
import { currentProfile } from '../../profiles/current.js';
import { builtUiDir } from '../../dashboard/static-files.js';
import { isLoopbackHost } from '../../webhook/route-checks.js';
import { printData, printError, printWarning } from '../console.js';
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

export async function dashboard(options: DashboardCliOptions): Promise<number> {
  const port = parsePort(options.port);
  const host = options.host.trim();
  const remote = !isLoopbackHost(host);
  if (remote && !options.allowRemote) {
    throw new CliFailure('usage', `${host} is not a loopback address: other machines could reach the dashboard; add --allow-remote if that is what you want`);
  }
  const paths = await openHome();
  await openConfig(paths); // config warnings, once
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
    allowRemote: Boolean(options.allowRemote),
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
  if (remote) printWarning(`listening on ${host}: anyone who can reach this machine can load the page; the API still needs this start's token`);
  printData('changes apply to new sessions; running sessions keep their model. Ctrl-C stops the dashboard.');
  if (options.open && process.stdout.isTTY) openBrowser(url);

  return new Promise<number>((resolve) => {
    const stop = () => {
      server.close(() => {
        void dashboardHandler.close().then(() => resolve(EXIT.ok));
      });
      server.closeAllConnections();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
