// A fake web site for web_extract tests: a real HTTP server on 127.0.0.1 (port 0) that serves
// scripted pages by path and records every request, so tests see what reached the site. Another
// loopback address (127.0.0.2) gives a second site that an address range can tell apart.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type PageSpec =
  | { kind: 'page'; status?: number; contentType?: string; body: string | Buffer; headers?: Record<string, string> }
  | { kind: 'redirect'; status?: number; location: string }
  /** Writes 64 KiB chunks for as long as the client reads; `written` counts what went out. */
  | { kind: 'endless'; contentType?: string }
  /** Headers at once, then one byte every `everyMs`, never finishing. */
  | { kind: 'drip'; everyMs: number };

export type PageRequest = { path: string; host: string | undefined };

export type PageServer = {
  /** `http://127.0.0.1:<port>` (or the address it was started on) */
  url: string;
  port: number;
  requests: PageRequest[];
  /** Bytes an `endless` page wrote before its client went away. */
  written: number;
  /** Resolves when an `endless` page's client has closed the connection. */
  endlessClosed: Promise<void>;
  serve(path: string, spec: PageSpec): void;
  close(): Promise<void>;
};

export async function startPageServer(host = '127.0.0.1'): Promise<PageServer> {
  const pages = new Map<string, PageSpec>();
  let markClosed: () => void = () => undefined;
  const state: PageServer = {
    url: '',
    port: 0,
    requests: [],
    written: 0,
    endlessClosed: new Promise<void>((resolve) => {
      markClosed = resolve;
    }),
    serve: (path, spec) => void pages.set(path, spec),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const timers = new Set<NodeJS.Timeout>();

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    state.requests.push({ path, host: req.headers.host });
    const spec = pages.get(path);
    if (!spec) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
      return;
    }
    switch (spec.kind) {
      case 'page':
        res.writeHead(spec.status ?? 200, { 'content-type': spec.contentType ?? 'text/html; charset=utf-8', ...spec.headers }).end(spec.body);
        return;
      case 'redirect':
        res.writeHead(spec.status ?? 302, { location: spec.location }).end();
        return;
      case 'endless': {
        res.writeHead(200, { 'content-type': spec.contentType ?? 'text/plain' });
        const chunk = Buffer.alloc(64 * 1024, 'a');
        const pump = () => {
          let more = true;
          while (more && !res.destroyed) {
            more = res.write(chunk);
            state.written += chunk.length;
          }
        };
        res.on('drain', pump);
        res.on('close', markClosed);
        pump();
        return;
      }
      case 'drip': {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const timer = setInterval(() => res.write('.'), spec.everyMs);
        timers.add(timer);
        res.on('close', () => {
          clearInterval(timer);
          timers.delete(timer);
        });
        return;
      }
    }
  };
  const server = createServer(handle);
  server.on('close', () => timers.forEach(clearInterval));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  state.port = (server.address() as AddressInfo).port;
  state.url = `http://${host}:${state.port}`;
  return state;
}
