// The real dashboard as a subprocess (`bin/iris dashboard --no-open`), and its session token read
// from the served page the way the UI gets it.
import { spawn, type ChildProcess } from 'node:child_process';
import { send as sendRequest, type HttpAnswer } from './gateway.js';
import { cleanEnv, IRIS_BIN } from './iris.js';

export type DashboardProcess = {
  readonly child: ChildProcess;
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  output(): string;
  stop(): Promise<number | null>;
};

const LINE = /^dashboard: (http:\/\/\S+?)\/?$/m;

/** `readToken: false` for a dashboard that signs people in (its page is not served before sign-in). */
export async function startDashboardProcess(
  home: string,
  env: Record<string, string> = {},
  args: readonly string[] = [],
  { readToken = true }: { readToken?: boolean } = {},
): Promise<DashboardProcess> {
  const child = spawn(process.execPath, [IRIS_BIN, 'dashboard', '--port', '0', '--no-open', ...args], {
    env: cleanEnv({ IRIS_HOME: home, ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the dashboard did not start:\n${text}`)), 15_000);
    const check = () => {
      const match = LINE.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the dashboard exited before listening:\n${text}`));
    });
  });
  const page = readToken ? await (await fetch(`${url}/`)).text() : '';
  const token = readToken ? /window\.__DASHBOARD_AUTH_TOKEN__=("[^"]+")/.exec(page)?.[1] : '""';
  if (!token) throw new Error(`no token in the page:\n${page.slice(0, 500)}`);
  return {
    child,
    url,
    port: Number(new URL(url).port),
    token: JSON.parse(token) as string,
    output: () => text,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

export type ApiRequestOptions = {
  /** Default: GET without a body, POST with one. */
  readonly method?: string;
  /** Sent as JSON. */
  readonly body?: unknown;
  /** Sent as it is, instead of `body` (a malformed body). */
  readonly raw?: string;
  /** Default: the dashboard's own token; null sends none. */
  readonly token?: string | null;
  /** Default: the dashboard's own host and port (a foreign Host is refused). */
  readonly host?: string;
};

/**
 * Requests to a dashboard's API as its page sends them (the session token header, JSON). `dash`
 * is asked at each request: tests start a new dashboard per test. `answer` gives [status, json].
 */
export function dashboardApi(dash: () => DashboardProcess) {
  const send = (path: string, options: ApiRequestOptions = {}): Promise<HttpAnswer> => {
    const { port, token: own } = dash();
    const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    const token = options.token === undefined ? own : options.token;
    return sendRequest(`http://127.0.0.1:${port}`, {
      path,
      method: options.method ?? (body === undefined ? 'GET' : 'POST'),
      headers: {
        host: options.host ?? `127.0.0.1:${port}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token === null ? {} : { 'x-service-session-token': token }),
      },
      ...(body === undefined ? {} : { body }),
    });
  };
  const answer = async (path: string, options: ApiRequestOptions = {}): Promise<[number, unknown]> => {
    const got = await send(path, options);
    return [got.status, got.json];
  };
  return { send, answer };
}
