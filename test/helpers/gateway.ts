// The real gateway as a subprocess (`bin/iris gateway run`) for end-to-end tests, plus signed
// requests to it over real HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { request } from 'node:http';
import { cleanEnv, IRIS_BIN } from './iris.js';

export type GatewayProcess = {
  readonly child: ChildProcess;
  readonly url: string;
  readonly port: number;
  /** stdout and stderr so far. */
  output(): string;
  /** Sends a signal and waits for the exit code (null when killed by the signal). */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

const LISTENING = /gateway listening on (\S+):(\d+) \(pid (\d+)\)/;
/** A `--role worker` gateway has no listener: it says so instead (its url is '' and port 0). */
const WORKING = /gateway worker running \(pid (\d+)\)/;

/**
 * Starts `iris gateway run [args]` and resolves once it prints its listening line (a worker: its
 * running line), or rejects with its output.
 */
export function startGatewayProcess(home: string, env: Record<string, string> = {}, timeoutMs = 15_000, args: readonly string[] = []): Promise<GatewayProcess> {
  const child = spawn(process.execPath, [IRIS_BIN, 'gateway', 'run', ...args], { env: cleanEnv({ IRIS_HOME: home, ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the gateway did not start in ${timeoutMs} ms:\n${text}`));
    }, timeoutMs);
    const onData = () => {
      const match = LISTENING.exec(text);
      if (!match && !WORKING.test(text)) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      const port = match ? Number(match[2]) : 0;
      resolve({
        child,
        url: match ? `http://127.0.0.1:${port}` : '',
        port,
        output: () => text,
        exited,
        stop: async (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      });
    };
    child.stdout.on('data', onData);
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`the gateway exited with ${code} before listening:\n${text}`));
    });
  });
}

/** Runs `iris gateway run [args]` expecting it to refuse to start; resolves with its exit code and output. */
export async function failedStart(home: string, env: Record<string, string> = {}, args: readonly string[] = []): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [IRIS_BIN, 'gateway', 'run', ...args], { env: cleanEnv({ IRIS_HOME: home, ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, output };
}

export function sign(body: string | Buffer, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export type HttpAnswer = { status: number; headers: Record<string, string | string[] | undefined>; text: string; json: unknown };

/**
 * One request over a fresh connection; `body` as given (a string or bytes). `localAddress`: the
 * client's own address (another loopback address, 127.0.0.2, is another client).
 */
export function send(
  url: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer; localAddress?: string },
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const target = { method: options.method ?? 'POST', headers: options.headers ?? {}, agent: false, ...(options.localAddress ? { localAddress: options.localAddress } : {}) };
    const req = request(`${url}${options.path}`, target, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

let deliveryCounter = 0;

/** A signed JSON POST to /webhooks/<route> with GitHub's headers. */
export function postEvent(
  url: string,
  route: string,
  payload: unknown,
  options: { secret: string; event?: string; delivery?: string | null; headers?: Record<string, string> },
): Promise<HttpAnswer> {
  const body = JSON.stringify(payload);
  const delivery = options.delivery === undefined ? `delivery-${process.pid}-${++deliveryCounter}` : options.delivery;
  return send(url, {
    path: `/webhooks/${route}`,
    headers: {
      'content-type': 'application/json',
      'x-github-event': options.event ?? 'pull_request',
      ...(delivery === null ? {} : { 'x-github-delivery': delivery }),
      'x-hub-signature-256': sign(body, options.secret),
      ...options.headers,
    },
    body,
  });
}

/** Polls `check` until it returns a value (not undefined) or the time is up. */
export async function waitFor<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000, what = 'the condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
