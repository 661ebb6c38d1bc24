// The dashboard's HTTP handler: the built UI and the REST API on one port. Every request passes
// the Host check; every /api request needs the session token, and, when the dashboard signs people
// in (a password or a trusted proxy: DECISIONS § Dashboard sign-in and roles), a signed-in
// session first. Every write is a line in logs/audit.log. Config and .env are read afresh per
// request (a key added with `iris config set` shows up without a restart); writes go through the
// assignment library that `iris model` uses.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { stat } from 'node:fs/promises';
import { effectiveEnv, readEnvFile } from '../config/env-file.js';
import { resolveHomePaths, type Env, type HomePaths } from '../config/home.js';
import { loadConfig } from '../config/store.js';
import { readBody } from '../http/read-body.js';
import { sendJson } from '../http/send-json.js';
import { openStoreAt, storeTarget } from '../store/open-store.js';
import type { Store } from '../store/types.js';
import type { AuditLog } from '../security/audit-log.js';
import { errorMessage } from '../domain/error-message.js';
import { hasSessionToken, hostAllowed } from './guard.js';
import { createLoginLimiter } from './auth/login-limiter.js';
import { createSessionStore, type SessionStore } from './auth/sessions.js';
import { clientAddress, identify, type Identity, type SignInMode } from './auth/sign-in.js';
import { createSignInRoutes, facts } from './auth/sign-in-routes.js';
import { HttpError } from './http-error.js';
import { profileHomeDir } from '../profiles/names.js';
import { ROUTE_AREAS } from './routes/index.js';
import { closeChatRuns, runningChats } from './routes/chat.js';
import { ANSWERED, matchRoute, NOT_JSON, type DashboardContext } from './routes/route.js';
import { contentSecurityPolicy, injectToken, readStatic } from './static-files.js';

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

type Served = { readonly profile: { readonly name: string; readonly baseDir: string }; readonly paths: HomePaths; readonly env: Env };

export function createDashboardHandler(options: DashboardOptions) {
  const started: Served = { profile: options.profile ?? { name: 'default', baseDir: options.paths.dir }, paths: options.paths, env: options.processEnv };
  // The profile served now (POST /api/profiles/switch changes it): every read below goes through it.
  let served = started;
  let store: Store | undefined;
  // Bumped by a switch, so a store that finishes opening after it (the old profile's) is not kept.
  let storeGeneration = 0;
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
    const read = await readEnvFile(served.paths);
    return effectiveEnv(read.ok ? read.values : new Map(), served.env);
  }

  async function currentConfig() {
    const loaded = await loadConfig(served.paths);
    if (!loaded.ok) throw new HttpError(500, loaded.error.message);
    return loaded.config;
  }

  async function targetNow() {
    const loaded = await loadConfig(served.paths);
    return storeTarget(served.paths.statePath, await currentEnv(), loaded.ok ? loaded.config : undefined);
  }

  /** Reading needs a store; without a state.db (SQLite) nothing has been recorded yet (and none is created). */
  async function existingStore(): Promise<Store | undefined> {
    if (store) return store;
    const generation = storeGeneration;
    const target = await targetNow();
    if (target.backend === 'sqlite') {
      const exists = await stat(target.path).then(() => true, () => false);
      if (!exists) return undefined;
    }
    return keep(generation, await openStoreAt(target, { mustExist: target.backend === 'sqlite' }), existingStore);
  }

  /** Writing (a chat's first message) creates the store when it is missing. */
  async function writableStore(): Promise<Store> {
    if (store) return store;
    const generation = storeGeneration;
    return keep(generation, await openStoreAt(await targetNow()), writableStore);
  }

  /** Caches a store opened for `generation`; one opened for the profile served before a switch is closed and opened afresh. */
  async function keep<T extends Store | undefined>(generation: number, opened: Store, again: () => Promise<T>): Promise<Store | T> {
    if (generation !== storeGeneration) {
      await opened.close();
      return again();
    }
    if (store) {
      // Two first requests opened one each: keep the first.
      await opened.close();
      return store;
    }
    store = opened;
    return store;
  }

  /** Serves `name` from now on (its config.yaml, .env and store); the caller has checked that it exists. */
  async function switchProfile(name: string): Promise<void> {
    // A running chat holds this profile's store, which the switch closes: it would fail mid-answer.
    const answering = runningChats(context);
    if (answering > 0) throw new HttpError(409, `${answering === 1 ? 'a chat is' : `${answering} chats are`} still answering: stop ${answering === 1 ? 'it' : 'them'} on the Chat page, then switch`);
    const { baseDir } = served.profile;
    const paths = name === started.profile.name ? started.paths : resolveHomePaths({ IRIS_HOME: profileHomeDir(baseDir, name) });
    // Its own home for whatever reads IRIS_HOME from the environment (a model call's routing, a spawned tool).
    const env = name === started.profile.name ? started.env : { ...options.processEnv, IRIS_HOME: paths.dir, IRIS_PROFILE: undefined };
    const old = store;
    store = undefined;
    storeGeneration += 1;
    served = { profile: { name, baseDir }, paths, env };
    await old?.close();
  }

  async function readJsonRequest(req: IncomingMessage): Promise<unknown> {
    const type = (req.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
    if (type !== 'application/json') throw new HttpError(415, 'send the body as Content-Type: application/json');
    const body = await readBody(req, MAX_BODY_BYTES, BODY_TIMEOUT_MS);
    if (!body.ok) throw new HttpError(body.status, body.error);
    try {
      return JSON.parse(body.body.toString('utf8')) as unknown;
    } catch {
      throw new HttpError(400, NOT_JSON);
    }
  }

  const context: DashboardContext = {
    get paths() {
      return served.paths;
    },
    get processEnv() {
      return served.env;
    },
    get profile() {
      return served.profile;
    },
    switchProfile,
    currentConfig,
    currentEnv,
    existingStore,
    store: writableStore,
    readJson: readJsonRequest,
    async audited(request, action, target, work) {
      const entry = { actor: request.identity.actor, from: clientAddress(options.signIn, facts(request.req)), action };
      try {
        const result = await work();
        options.audit.write({ ...entry, target: target(), ok: true });
        return result;
      } catch (err) {
        options.audit.write({ ...entry, target: target(), ok: false, reason: err instanceof HttpError ? `${err.status}: ${err.message}` : errorMessage(err) });
        throw err;
      }
    },
  };
  const routes = ROUTE_AREAS.flatMap((area) => area(context));

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
    const found = matchRoute(routes, req.method ?? 'GET', url.pathname);
    if (!found) return json(res, 404, { error: 'Not found' });
    if ('allow' in found) return json(res, 405, { error: 'Method not allowed' }, { allow: found.allow });
    const answer = await found.route.run({ req, res, url, params: found.params, identity });
    if (answer === ANSWERED) return;
    if (isStatusAnswer(answer)) return json(res, answer.status, answer.body, answer.headers ?? {});
    json(res, 200, answer);
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

  return {
    handle,
    close: async () => {
      await closeChatRuns(context); // running chats end (and write their state) before the store closes
      await store?.close();
    },
  };
}

function unbuiltPage(uiDir: string): string {
  const escaped = uiDir.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Iris dashboard</title></head><body><h1>The dashboard UI is not built</h1><p>${escaped} is missing: run <code>npm run build</code> in the Iris folder and reload. The REST API works meanwhile.</p></body></html>`;
}

function isStatusAnswer(answer: unknown): answer is { status: number; body: unknown; headers?: Record<string, string> } {
  return typeof answer === 'object' && answer !== null && 'status' in answer && 'body' in answer && typeof (answer as { status: unknown }).status === 'number';
}
