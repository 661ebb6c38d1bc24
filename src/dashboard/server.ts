// The dashboard's HTTP handler: the built UI and the REST API on one port. Every request passes
// the Host check; every /api request needs the session token, and, when the dashboard signs people
// in (a password or a trusted proxy: DECISIONS § Dashboard sign-in and roles), a signed-in
// session first. Every write is a line in logs/audit.log. Config and .env are read afresh per
// request (a key added with `iris config set` shows up without a restart); writes go through the
// assignment library that `iris model` uses.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { stat } from 'node:fs/promises';
import { loadOAuthView } from '../auth/view.js';
import { effectiveEnv, readEnvFile } from '../config/env-file.js';
import type { Env, HomePaths } from '../config/home.js';
import { loadConfig, updateConfig } from '../config/store.js';
import { readBody } from '../http/read-body.js';
import { sendJson } from '../http/send-json.js';
import { findCatalogModel, contextLengthFor } from '../providers/catalog.js';
import { setAuxModel, setMainModel, type AuxChange, type MainChange } from '../routing/assignments.js';
import { parseSince } from '../store/since.js';
import { openStoreAt, storeTarget } from '../store/open-store.js';
import { usageTotalsJson } from '../store/usage-json.js';
import type { Store } from '../store/types.js';
import { hasSessionToken, hostAllowed } from './guard.js';
import type { AuditLog } from '../security/audit-log.js';
import { createLoginLimiter } from './auth/login-limiter.js';
import { createSessionStore, type SessionStore } from './auth/sessions.js';
import { clientAddress, identify, type Identity, type SignInMode } from './auth/sign-in.js';
import { createSignInRoutes, facts } from './auth/sign-in-routes.js';
import { customEndpointModels } from './custom-models.js';
import { auxiliaryAssignments, modelOptions } from './read-models.js';
import { parseSetRequest } from './set-request.js';
import { describeFromRequest, profilesJson } from './profiles-api.js';
import { contentSecurityPolicy, injectToken, readStatic } from './static-files.js';
import { errorMessage } from '../domain/error-message.js';

export type DashboardOptions = {
  readonly paths: HomePaths;
  readonly processEnv: Env;
  readonly token: string;
  readonly nonce: string;
  readonly boundHost: string;
  /** The port actually bound (known after listen). */
  readonly port: () => number;
  /** On a non-loopback address: the Host names answered besides the loopback ones (dashboard.public_hosts). */
  readonly publicHosts: readonly string[];
  readonly signIn: SignInMode;
  readonly audit: AuditLog;
  /** For tests: the signed-in sessions (default: a new in-memory store). */
  readonly sessions?: SessionStore;
  readonly uiDir: string;
  /** The profile this dashboard serves and `$IRIS_HOME` (where the other profiles live); default: the home itself. */
  readonly profile?: { readonly name: string; readonly baseDir: string };
};

const MAX_BODY_BYTES = 64 * 1024;
const BODY_TIMEOUT_MS = 10_000;
const COMMON_HEADERS = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' };

type Json = (res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>) => void;
const json: Json = (res, status, body, headers = {}) => sendJson(res, status, body, { ...COMMON_HEADERS, ...headers });

export function createDashboardHandler(options: DashboardOptions) {
  let store: Store | undefined;
  const sessions = options.sessions ?? createSessionStore();
  const signInRoutes = createSignInRoutes({
    mode: options.signIn,
    sessions,
    limiter: createLoginLimiter(),
    audit: options.audit,
    readJson: (req) => readJsonRequest(req),
    json,
  });

  async function currentEnv(): Promise<Env> {
    const read = await readEnvFile(options.paths);
    return effectiveEnv(read.ok ? read.values : new Map(), options.processEnv);
  }

  async function currentConfig() {
    const loaded = await loadConfig(options.paths);
    if (!loaded.ok) throw new HttpError(500, loaded.error.message);
    return loaded.config;
  }

  /** Usage needs the store; without a state.db (SQLite) nothing has been recorded yet (and none is created). */
  async function usageStore(): Promise<Store | undefined> {
    if (store) return store;
    const loaded = await loadConfig(options.paths);
    const target = storeTarget(options.paths.statePath, await currentEnv(), loaded.ok ? loaded.config : undefined);
    if (target.backend === 'sqlite') {
      const exists = await stat(target.path).then(() => true, () => false);
      if (!exists) return undefined;
    }
    store = await openStoreAt(target, { mustExist: target.backend === 'sqlite' });
    return store;
  }

  async function usage(url: URL) {
    const sinceText = url.searchParams.get('since');
    let since: number | undefined;
    if (sinceText !== null && sinceText !== '') {
      const parsed = parseSince(sinceText, Date.now());
      if (!parsed.ok) throw new HttpError(400, parsed.message.replace('--since', 'since'));
      since = parsed.since;
    }
    const opened = await usageStore();
    const rows = opened ? await opened.usageSummary({ by: 'model', ...(since === undefined ? {} : { since }) }) : [];
    return {
      since: since === undefined ? null : new Date(since).toISOString(),
      models: rows.map((row) => {
        const provider = row.provider ?? '';
        const model = row.model ?? '';
        return {
          provider,
          model,
          ...usageTotalsJson(row),
          tasks: row.served,
          context_length: contextLengthFor(provider, model),
          capabilities: [...(findCatalogModel(provider, model)?.capabilities ?? [])],
        };
      }),
    };
  }

  async function readJsonRequest(req: IncomingMessage): Promise<unknown> {
    const type = (req.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
    if (type !== 'application/json') throw new HttpError(415, 'send the body as Content-Type: application/json');
    const body = await readBody(req, MAX_BODY_BYTES, BODY_TIMEOUT_MS);
    if (!body.ok) throw new HttpError(body.status, body.error);
    try {
      return JSON.parse(body.body.toString('utf8')) as unknown;
    } catch {
      throw new HttpError(422, 'the body is not JSON');
    }
  }

  const profile = options.profile ?? { name: 'default', baseDir: options.paths.dir };

  /** Runs a write and records it in audit.log, done or refused, with what it was about. */
  async function audited<T>(req: IncomingMessage, identity: Identity, action: string, target: () => string, work: () => Promise<T>): Promise<T> {
    const entry = { actor: identity.actor, from: clientAddress(options.signIn, facts(req)), action };
    try {
      const result = await work();
      options.audit.write({ ...entry, target: target(), ok: true });
      return result;
    } catch (err) {
      options.audit.write({ ...entry, target: target(), ok: false, reason: err instanceof HttpError ? `${err.status}: ${err.message}` : errorMessage(err) });
      throw err;
    }
  }

  async function describe(req: IncomingMessage, identity: Identity) {
    let target = '';
    return audited(req, identity, 'profile.describe', () => target, async () => {
      const data = await readJsonRequest(req);
      target = typeof (data as { profile?: unknown } | null)?.profile === 'string' ? (data as { profile: string }).profile : '';
      const outcome = await describeFromRequest(data, profile.baseDir, options.processEnv);
      if (!outcome.ok) throw new HttpError(outcome.status, outcome.error);
      return outcome.body;
    });
  }

  async function setModel(req: IncomingMessage, identity: Identity) {
    let target = '';
    return audited(req, identity, 'model.set', () => target, async () => {
      const data = await readJsonRequest(req);
      const checked = parseSetRequest(data);
      if (!checked.ok) throw new HttpError(checked.status, checked.error);
      const request = checked.request;
      if (request.scope === 'main') {
        target = `main ${request.provider}/${request.model}`;
        const result = await updateConfig<MainChange>(options.paths, (doc) => setMainModel(doc, request.provider, request.model));
        if (!result.ok) throw configError(result.error);
        return { ok: true, scope: 'main', provider: result.provider, model: result.model, previous: result.previous, stale_aux: result.staleAux };
      }
      target = `auxiliary ${typeof (data as { task?: unknown }).task === 'string' ? (data as { task: string }).task || '(all)' : ''} ${request.provider}/${request.model}`.trim();
      const result = await updateConfig<AuxChange>(options.paths, (doc) => setAuxModel(doc, request.target, request.provider, request.model));
      if (!result.ok) throw configError(result.error);
      if (result.reset) return { ok: true, scope: 'auxiliary', reset: true };
      return { ok: true, scope: 'auxiliary', tasks: result.tasks, provider: result.provider, model: result.model };
    });
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL, identity: Identity | undefined): Promise<void> {
    if (url.pathname === '/api/login') {
      if (req.method !== 'POST') return json(res, 405, { error: 'Method not allowed' }, { allow: 'POST' });
      return signInRoutes.login(req, res);
    }
    if (url.pathname === '/api/logout') {
      if (req.method !== 'POST') return json(res, 405, { error: 'Method not allowed' }, { allow: 'POST' });
      return signInRoutes.logout(req, res, identity);
    }
    // Before sign-in nothing else answers, whatever token is sent (it may have leaked).
    if (!identity) return json(res, 401, { error: 'Sign in first' });
    if (!hasSessionToken(req.headers, options.token)) return json(res, 401, { error: 'Unauthorized' });
    const routes: Record<string, { method: string; run: () => Promise<unknown> }> = {
      '/api/model/options': {
        method: 'GET',
        run: async () => {
          const config = await currentConfig();
          const env = await currentEnv();
          return modelOptions(config, env, (await loadOAuthView(options.paths)).view, await customEndpointModels(config, env));
        },
      },
      '/api/model/auxiliary': { method: 'GET', run: async () => auxiliaryAssignments(await currentConfig()) },
      '/api/model/set': { method: 'POST', run: () => setModel(req, identity) },
      '/api/usage': { method: 'GET', run: () => usage(url) },
      '/api/profiles': { method: 'GET', run: () => profilesJson(profile.baseDir, profile.name) },
      '/api/profile/describe': { method: 'POST', run: () => describe(req, identity) },
    };
    const route = routes[url.pathname];
    if (!route) return json(res, 404, { error: 'Not found' });
    if (req.method !== route.method) return json(res, 405, { error: 'Method not allowed' }, { allow: route.method });
    json(res, 200, await route.run());
  }

  async function page(req: IncomingMessage, res: ServerResponse, url: URL, identity: Identity | undefined): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 405, { error: 'Method not allowed' }, { allow: 'GET, HEAD' });
    if (url.pathname === '/login') return signInRoutes.page(req, res, identity);
    const safety = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };
    const send = (status: number, type: string, body: Buffer, headers: Record<string, string>) => {
      res.writeHead(status, { 'content-type': type, 'content-length': body.length, ...safety, ...headers });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (url.pathname !== '/' && url.pathname !== '/index.html') {
      const file = await readStatic(options.uiDir, url.pathname);
      if (file.status === 404) return json(res, 404, { error: 'Not found' });
      return send(200, file.type, file.body, { 'cache-control': 'public, max-age=3600' });
    }
    // Before sign-in the page (the only thing that carries the token) is not served.
    if (!identity) {
      res.writeHead(302, { location: '/login', 'cache-control': 'no-store', ...safety });
      res.end();
      return;
    }
    // Without a built UI the page still carries the token (the API stays usable) and says why.
    const file = await readStatic(options.uiDir, '/index.html');
    const html = file.status === 200 ? file.body.toString('utf8') : unbuiltPage(options.uiDir);
    send(file.status === 200 ? 200 : 503, 'text/html; charset=utf-8', Buffer.from(injectToken(html, options.token, options.nonce, identity.via !== 'local')), {
      'content-security-policy': contentSecurityPolicy(options.nonce),
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
    });
  }

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    if (!hostAllowed(req.headers.host, options.boundHost, options.port(), options.publicHosts)) {
      return json(res, 400, { error: 'Invalid Host header' });
    }
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://dashboard.invalid');
    } catch {
      return json(res, 400, { error: 'Bad request' });
    }
    const identity = identify(options.signIn, facts(req), sessions);
    const work = url.pathname === '/api' || url.pathname.startsWith('/api/') ? api(req, res, url, identity) : page(req, res, url, identity);
    work.catch((err: unknown) => {
      if (err instanceof HttpError) return json(res, err.status, { error: err.message });
      json(res, 500, { error: errorMessage(err) || 'Internal error' });
    });
  };

  return { handle, close: async () => store?.close() };
}

function unbuiltPage(uiDir: string): string {
  const escaped = uiDir.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Iris dashboard</title></head><body><h1>The dashboard UI is not built</h1><p>${escaped} is missing: run <code>npm run build</code> in the Iris folder and reload. The REST API works meanwhile.</p></body></html>`;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function configError(error: { code: string; message: string }): HttpError {
  if (error.code === 'invalid_value' || error.code === 'invalid_key') return new HttpError(400, error.message);
  if (error.code === 'lock_timeout') return new HttpError(503, error.message);
  return new HttpError(500, error.message);
}
