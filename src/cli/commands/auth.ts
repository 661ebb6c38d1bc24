// `iris auth [--json]`: a block per provider in use — endpoint, auth mode, the key's variable and
// where it was found (never its value), the scope in identity mode, or that an OAuth token is
// stored and until when (never the token). No live probe: `iris doctor` runs those.
// `iris auth add | login | logout | remove`: the subscription sign-in (OAuth 2.0 device
// authorization grant, RFC 8628) and its entry in $IRIS_HOME/auth.json.
import { tokensFromAnswer } from '../../auth/decide.js';
import { runDeviceFlow } from '../../auth/device-flow.js';
import type { DeviceAuthorization } from '../../auth/oauth-http.js';
import { checkOAuthProvider, resolveAuthServer } from '../../auth/server.js';
import { authStorePath, loadAuthStore, updateAuthStore, withEntry, type AuthEntry } from '../../auth/store.js';
import { loadOAuthView } from '../../auth/view.js';
import type { HomePaths } from '../../config/home.js';
import type { Result } from '../../config/result.js';
import { buildAuthEntries, formatAuthText } from '../../doctor/auth-report.js';
import { findProvidersInUse } from '../../doctor/providers-in-use.js';
import { providerSpec } from '../../providers/catalog.js';
import { printData, printError, printJson, printWarning } from '../console.js';
import { openConfig, openEnv, openHome } from '../context.js';
import { CliFailure, EXIT } from '../exit-codes.js';

export async function auth(options: { json?: boolean }): Promise<void> {
  const paths = await openHome();
  const env = await openEnv(paths);
  const { config } = await openConfig(paths);
  const oauth = await loadOAuthView(paths);
  if (oauth.problem) printWarning(oauth.problem);
  const uses = findProvidersInUse(config, env, process.env, oauth.view);
  if (options.json) printJson({ providers: buildAuthEntries(uses) });
  else printData(formatAuthText(uses));
}

function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw new CliFailure(result.error.code, result.error.message);
  return result;
}

function checkedProvider(provider: string): void {
  const check = checkOAuthProvider(provider);
  if (!check.ok) throw new CliFailure('usage', check.message);
}

function httpUrl(text: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliFailure('usage', `${flag} must be an http(s) URL, not "${text}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new CliFailure('usage', `${flag} must be an http(s) URL, not "${text}"`);
  if (url.username || url.password) throw new CliFailure('usage', `${flag} must not carry a user name or password`);
  return url.toString().replace(/\/+$/, '');
}

export type AuthAddOptions = { clientId: string; issuer?: string; scope?: string };

export async function authAdd(provider: string, options: AuthAddOptions & { json?: boolean }): Promise<void> {
  checkedProvider(provider);
  const clientId = options.clientId.trim();
  if (!clientId) throw new CliFailure('usage', '--client-id needs the client id registered with the provider');
  const issuer = options.issuer !== undefined ? httpUrl(options.issuer, '--issuer') : undefined;
  const scope = options.scope?.trim();
  const candidate: AuthEntry = { client_id: clientId, ...(issuer ? { issuer } : {}), ...(scope ? { scope } : {}), added_at: new Date().toISOString() };
  const server = resolveAuthServer(provider, candidate);
  if (!server.ok) throw new CliFailure('usage', `${provider} has no known authorization server: pass --issuer <url>`);

  const paths = await openHome();
  const path = authStorePath(paths);
  const kept = unwrap(
    await updateAuthStore(path, (store) => {
      const previous = store.providers[provider];
      // Tokens belong to a client id at an authorization server: a change of either drops them.
      const same = previous?.oauth && previous.client_id === candidate.client_id && previous.issuer === candidate.issuer;
      const entry: AuthEntry = same && previous.oauth ? { ...candidate, oauth: previous.oauth } : candidate;
      return { ok: true, store: withEntry(store, provider, entry), value: Boolean(same) };
    }),
  ).value;
  if (options.json) return printJson({ provider, client_id: clientId, issuer: issuer ?? null, scope: scope || null, file: path, sign_in_kept: kept });
  printData(
    `Stored the client id for ${provider} in ${path}${kept ? ' (the stored sign-in is kept)' : ''}\n` +
      `Next: iris auth login ${provider}`,
  );
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });

function minutes(seconds: number): string {
  return seconds >= 120 ? `${Math.round(seconds / 60)} min` : `${seconds} s`;
}

function showCode(provider: string, device: DeviceAuthorization): void {
  const name = providerSpec(provider)?.name ?? provider;
  const lines = [`To sign in to ${name}, open ${device.verification_uri} and enter the code ${device.user_code}`];
  if (device.verification_uri_complete) lines.push(`(or open ${device.verification_uri_complete})`);
  lines.push(`Waiting for the sign-in to be approved (the code expires in ${minutes(device.expires_in)})…`);
  printData(lines.join('\n'));
}

async function storedEntry(paths: HomePaths, provider: string): Promise<AuthEntry | undefined> {
  return unwrap(await loadAuthStore(authStorePath(paths))).store.providers[provider];
}

export async function authLogin(provider: string): Promise<number> {
  checkedProvider(provider);
  const paths = await openHome();
  const entry = await storedEntry(paths, provider);
  if (!entry) throw new CliFailure('not_found', `no client id for ${provider}: run iris auth add ${provider} --client-id <id> first`);
  const server = resolveAuthServer(provider, entry);
  if (!server.ok) throw new CliFailure('not_found', server.message);

  const abort = new AbortController();
  const onSignal = () => abort.abort();
  process.once('SIGINT', onSignal);
  let flow;
  try {
    flow = await runDeviceFlow(server.server, entry.client_id, (device) => showCode(provider, device), {
      fetch,
      now: Date.now,
      sleep,
      signal: abort.signal,
    });
  } finally {
    process.removeListener('SIGINT', onSignal);
  }
  if (!flow.ok) {
    printError(`${provider} sign-in failed: ${flow.message}${flow.code === 'access_denied' || flow.code === 'expired_token' ? `; run iris auth login ${provider} to try again` : ''}`);
    return flow.code === 'cancelled' ? 130 : EXIT.failure;
  }
  const answer = flow.answer;
  const path = authStorePath(paths);
  const stored = unwrap(
    await updateAuthStore(path, (store) => {
      const current = store.providers[provider];
      // `auth add` or `auth remove` ran meanwhile: the tokens belong to a client id no longer stored.
      if (!current || current.client_id !== entry.client_id || current.issuer !== entry.issuer) {
        return { ok: true, value: undefined };
      }
      const oauth = tokensFromAnswer(answer, Date.now());
      return { ok: true, store: withEntry(store, provider, { ...current, oauth }), value: oauth };
    }),
  ).value;
  if (!stored) {
    printError(`${provider}: the entry in ${path} changed during the sign-in; run iris auth login ${provider} again`);
    return EXIT.failure;
  }
  printData(`Signed in to ${provider}: the token is stored in ${path} (${stored.expires_at ? `expires ${stored.expires_at}` : 'no expiry given'})`);
  return EXIT.ok;
}

export async function authLogout(provider: string, options: { json?: boolean } = {}): Promise<void> {
  const paths = await openHome();
  const path = authStorePath(paths);
  const had = unwrap(
    await updateAuthStore(path, (store) => {
      const current = store.providers[provider];
      if (!current?.oauth) return { ok: true, value: false };
      const kept: AuthEntry = { ...current };
      delete kept.oauth;
      return { ok: true, store: withEntry(store, provider, kept), value: true };
    }),
  ).value;
  if (options.json) return printJson({ provider, signed_out: had, file: path });
  printData(had ? `Signed out of ${provider}: the tokens are removed from ${path} (the client id is kept)` : `${provider} has no stored sign-in; nothing to remove`);
}

export async function authRemove(provider: string, options: { json?: boolean } = {}): Promise<void> {
  const paths = await openHome();
  const path = authStorePath(paths);
  const had = unwrap(
    await updateAuthStore(path, (store) =>
      store.providers[provider] ? { ok: true, store: withEntry(store, provider, undefined), value: true } : { ok: true, value: false },
    ),
  ).value;
  if (!had) throw new CliFailure('not_found', `${provider} has no entry in ${path}`);
  if (options.json) return printJson({ provider, removed: true, file: path });
  printData(`Removed ${provider} from ${path} (its client id and any tokens)`);
}
