// The gateway's HTTP server: its timeouts against slow clients, a listen that reports the port
// really bound (or why not), and a close that does not wait for idle keep-alive sockets.
import { createServer, type RequestListener, type Server } from 'node:http';

/**
 * How often Node looks for requests past headersTimeout and requestTimeout. Those are enforced
 * only at this check (30 s by default), so slow headers were cut 10 to 40 s in, not at 10 s.
 */
const CONNECTIONS_CHECK_EVERY_MS = 1_000;

export function createGatewayServer(handler: RequestListener, bodyTimeoutMs: number): Server {
  const server = createServer({ connectionsCheckingInterval: CONNECTIONS_CHECK_EVERY_MS }, handler);
  // A slow or stalled client cannot hold a socket for long: headers within 10 s (and at most
  // CONNECTIONS_CHECK_EVERY_MS more), the whole request shortly after the body deadline (the
  // handler answers 408 at the deadline itself), idle keep-alive sockets closed after 5 s.
  server.headersTimeout = 10_000;
  server.requestTimeout = bodyTimeoutMs + 5_000;
  server.keepAliveTimeout = 5_000;
  server.timeout = bodyTimeoutMs + 10_000;
  server.maxHeadersCount = 100;
  server.maxConnections = 1_024;
  return server;
}

export type ListenResult = { readonly ok: true; readonly port: number } | { readonly ok: false; readonly code: string; readonly message: string };

export function listen(server: Server, host: string, port: number): Promise<ListenResult> {
  return new Promise((resolve) => {
    const onError = (err: NodeJS.ErrnoException) => resolve({ ok: false, code: err.code ?? 'unknown', message: err.message });
    server.once('error', onError);
    server.listen({ host, port }, () => {
      server.off('error', onError);
      const address = server.address();
      resolve({ ok: true, port: typeof address === 'object' && address ? address.port : port });
    });
  });
}

/** Pure: a failed listen as the sentence that says how to fix it. */
export function listenProblem(failure: Extract<ListenResult, { ok: false }>, host: string, port: number): string {
  if (failure.code === 'EADDRINUSE') return `port ${port} on ${host} is already in use (another gateway or program); choose another with iris config set platforms.webhook.extra.port <port>`;
  if (failure.code === 'EACCES') return `not allowed to listen on ${host}:${port} (ports below 1024 need privileges); set platforms.webhook.extra.port`;
  return `cannot listen on ${host}:${port}: ${failure.message}`;
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
