// The dashboard's HTTP handler: the built UI and the REST API on one port. Every request passes
// the Host check; every /api request needs the session token. Config and .env are read afresh per
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
  readonly allowRemote: boolean;
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
      since: since ?? null,
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

  async function describe(req: IncomingMessage) {
    const outcome = await describeFromRequest(await readJsonRequest(req), profile.baseDir, options.processEnv);
    if (!outcome.ok) throw new HttpError(outcome.status, outcome.error);
    return outcome.body;
  }

  async function setModel(req: IncomingMessage) {
    const data = await readJsonRequest(req);
    const checked = parseSetRequest(data);
    if (!checked.ok) throw new HttpError(checked.status, checked.error);
    const request = checked.request;
    if (request.scope === 'main') {
      const result = await updateConfig<MainChange>(options.paths, (doc) => setMainModel(doc, request.provider, request.model));
      if (!result.ok) throw configError(result.error);
      return { ok: true, scope: 'main', provider: result.provider, model: result.model, previous: result.previous, stale_aux: result.staleAux };
    }
    const result = await updateConfig<AuxChange>(options.paths, (doc) => setAuxModel(doc, request.target, request.provider, request.model));
    if (!result.ok) throw configError(result.error);
    if (result.reset) return { ok: true, scope: 'auxiliary', reset: true };
    return { ok: true, scope: 'auxiliary', tasks: result.tasks, provider: result.provider, model: result.model };
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
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
      '/api/model/set': { method: 'POST', run: () => setModel(req) },
      '/api/usage': { method: 'GET', run: () => usage(url) },
      '/api/profiles': { method: 'GET', run: () => profilesJson(profile.baseDir, profile.name) },
      '/api/profile/describe': { method: 'POST', run: () => describe(req) },
    };
    const route = routes[url.pathname];
    if (!route) return json(res, 404, { error: 'Not found' });
    if (req.method !== route.method) return json(res, 405, { error: 'Method not allowed' }, { allow: route.method });
    json(res, 200, await route.run());
  }

  async function page(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 405, { error: 'Method not allowed' }, { allow: 'GET, HEAD' });
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
    // Without a built UI the page still carries the token (the API stays usable) and says why.
    const file = await readStatic(options.uiDir, '/index.html');
    const html = file.status === 200 ? file.body.toString('utf8') : unbuiltPage(options.uiDir);
    send(file.status === 200 ? 200 : 503, 'text/html; charset=utf-8', Buffer.from(injectToken(html, options.token, options.nonce)), {
      'content-security-policy': contentSecurityPolicy(options.nonce),
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
    });
  }

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    if (!hostAllowed(req.headers.host, options.boundHost, options.port(), options.allowRemote)) {
      return json(res, 400, { error: 'Invalid Host header' });
    }
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://dashboard.invalid');
    } catch {
      return json(res, 400, { error: 'Bad request' });
    }
    const work = url.pathname === '/api' || url.pathname.startsWith('/api/') ? api(req, res, url) : page(req, res, url);
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
