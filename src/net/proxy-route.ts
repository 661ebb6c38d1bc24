// Whether a request goes through the proxy, by the same NO_PROXY rules as undici's EnvHttpProxyAgent
// (which the model clients use), decided here because a request that bypasses the proxy must get
// the full address check and one that goes through it must not be resolved locally.

/** HTTP(S)_PROXY and NO_PROXY as read from the service's environment (providers/wire/network.ts). */
export type ProxySettings = {
  readonly httpProxy?: string;
  readonly httpsProxy?: string;
  readonly noProxy?: string;
};

const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

/** The proxy URL for this request, or undefined to connect directly. */
export function proxyFor(url: URL, proxy: ProxySettings): string | undefined {
  const proxyUrl = url.protocol === 'https:' ? proxy.httpsProxy : proxy.httpProxy;
  if (!proxyUrl) return undefined;
  const noProxy = proxy.noProxy ?? '';
  if (noProxy.trim() === '*') return undefined;
  const hostname = url.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number.parseInt(url.port, 10) || DEFAULT_PORTS[url.protocol] || 0;
  for (const entry of noProxy.split(/[,\s]/)) {
    if (!entry) continue;
    const parsed = /^(.+):(\d+)$/.exec(entry);
    const host = (parsed ? (parsed[1] as string) : entry).replace(/^\*?\./, '').toLowerCase();
    const entryPort = parsed ? Number.parseInt(parsed[2] as string, 10) : 0;
    if (entryPort && entryPort !== port) continue;
    if (hostname === host || hostname.endsWith(`.${host}`)) return undefined;
  }
  return proxyUrl;
}
