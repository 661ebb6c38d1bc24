// The gateway listener's paths that belong to a platform adapter (SMS: `POST /platforms/sms`),
// ahead of the webhook handler. The adapter answers everything on its path, wrong methods included.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InboundSink } from '../platforms/types.js';

export type PlatformRoute = {
  readonly path: string;
  readonly handle: (request: IncomingMessage, response: ServerResponse, sink: InboundSink) => Promise<void>;
  readonly sink: InboundSink;
};

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  const query = raw.indexOf('?');
  return query === -1 ? raw : raw.slice(0, query);
}

export function withPlatformRoutes(routes: readonly PlatformRoute[], next: Handler): Handler {
  if (routes.length === 0) return next;
  const byPath = new Map(routes.map((route) => [route.path, route]));
  return (request, response) => {
    const route = byPath.get(pathOf(request.url));
    if (!route) return next(request, response);
    route.handle(request, response, route.sink).catch(() => {
      // The adapter answers its own failures; this is the last guard against a dropped socket.
      if (!response.headersSent) {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end('{"error":"Internal error"}');
      } else response.destroy();
    });
  };
}
