// One HTTP dispatcher per process and proxy setting: keeps connections alive across calls and
// honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY (enterprise endpoints sit behind proxies), read
// from the service's environment map (which includes .env), not only the process's.
import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';
import type { Env } from '../../config/home.js';
import type { ProxySettings } from '../../net/proxy-route.js';

export type { ProxySettings };

export function resolveProxySettings(env: Env): ProxySettings {
  const pick = (...names: string[]) => names.map((n) => env[n]?.trim()).find((v) => v);
  const httpProxy = pick('HTTP_PROXY', 'http_proxy');
  const httpsProxy = pick('HTTPS_PROXY', 'https_proxy') ?? httpProxy;
  const noProxy = pick('NO_PROXY', 'no_proxy');
  return {
    ...(httpProxy ? { httpProxy } : {}),
    ...(httpsProxy ? { httpsProxy } : {}),
    ...(noProxy ? { noProxy } : {}),
  };
}

const dispatchers = new Map<string, Dispatcher>();

/** A shared dispatcher for these proxy settings and connect timeout. */
export function dispatcherFor(proxy: ProxySettings, connectMs: number): Dispatcher {
  const key = JSON.stringify([proxy, connectMs]);
  let dispatcher = dispatchers.get(key);
  if (!dispatcher) {
    // Our own timers (first byte, idle) govern a call; undici's are only a backstop.
    const common = { connect: { timeout: connectMs }, headersTimeout: 0, bodyTimeout: 0 };
    dispatcher =
      proxy.httpProxy || proxy.httpsProxy
        ? new EnvHttpProxyAgent({ ...common, ...proxy, noProxy: proxy.noProxy ?? '' })
        : new Agent(common);
    dispatchers.set(key, dispatcher);
  }
  return dispatcher;
}
