// GET /metrics: who may read it and how it is answered. It sits in front of the webhook handler,
// so a scrape is neither rate-limited as a route nor logged (a line per scrape would only be noise).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Env } from '../../config/home.js';
import { sendJson } from '../../http/send-json.js';
import { safeEqual } from '../../runtime/safe-equal.js';
import type { GatewayMetrics } from './types.js';

export const METRICS_PATH = '/metrics';
export const METRICS_TOKEN_ENV = 'IRIS_METRICS_TOKEN';

/** The scrape token from the environment; blank counts as unset. */
export function metricsToken(env: Env): string | undefined {
  const token = env[METRICS_TOKEN_ENV]?.trim();
  return token ? token : undefined;
}

export type ScrapeDecision = 'allowed' | 'unauthorized';

/** Without a token anyone who reaches the listener may scrape; with one, only `Bearer <token>`, compared in constant time. */
export function authorizeScrape(authorization: string | undefined, token: string | undefined): ScrapeDecision {
  if (token === undefined) return 'allowed';
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
  return match && safeEqual(match[1]!, token) ? 'allowed' : 'unauthorized';
}

/** Is this request for /metrics (any query string aside)? */
export function isMetricsRequest(url: string | undefined): boolean {
  if (url === undefined || !url.startsWith(METRICS_PATH)) return false;
  return url.length === METRICS_PATH.length || url[METRICS_PATH.length] === '?';
}

export function createMetricsEndpoint(metrics: Pick<GatewayMetrics, 'render' | 'contentType'>, token: string | undefined) {
  return function serveMetrics(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { error: 'Method not allowed' }, { allow: 'GET, HEAD' });
    if (authorizeScrape(req.headers.authorization, token) === 'unauthorized') {
      return sendJson(res, 401, { error: 'Unauthorized' }, { 'www-authenticate': 'Bearer realm="iris metrics"' });
    }
    metrics.render().then(
      (text) => {
        if (res.headersSent || res.destroyed) return;
        res.writeHead(200, { 'content-type': metrics.contentType, 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => sendJson(res, 500, { error: 'Metrics unavailable' }),
    );
  };
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** /metrics to the endpoint, everything else to the webhook handler as before. */
export function withMetricsEndpoint(serveMetrics: Handler, next: Handler): Handler {
  return (req, res) => (isMetricsRequest(req.url) ? serveMetrics(req, res) : next(req, res));
}
