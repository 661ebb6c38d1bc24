// What a dashboard API area registers: a method, a path pattern (`/api/sessions/:id`) and the work.
// Each area (models, sessions, usage, chat, profiles…) lives in a file of its own under routes/ and
// gets the same context; server.ts owns the checks every request passes first (Host, sign-in,
// token), so a route never repeats them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../../config/schema.js';
import type { Env, HomePaths } from '../../config/home.js';
import type { Store } from '../../store/types.js';
import type { Identity } from '../auth/sign-in.js';

export type RouteMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export type RouteRequest = {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  /** The `:name` segments of the pattern, decoded. */
  readonly params: Readonly<Record<string, string>>;
  readonly identity: Identity;
};

/**
 * What a route's work returns: a JSON body for a 200, `{status, body}` for another status, or
 * ANSWERED when it wrote the response itself (a stream, a download).
 */
export const ANSWERED = Symbol('answered');
// (typed `unknown`: a plain body can be any JSON value; server.ts tells the three apart.)
export type RouteAnswer = unknown;

export type Route = {
  readonly method: RouteMethod;
  readonly path: string;
  readonly run: (request: RouteRequest) => Promise<RouteAnswer>;
};

export type DashboardContext = {
  readonly paths: HomePaths;
  readonly processEnv: Env;
  /** The profile this dashboard serves and `$IRIS_HOME` (where the other profiles live). */
  readonly profile: { readonly name: string; readonly baseDir: string };
  /**
   * Serves another (existing) profile from now on: `paths`, `processEnv`, `profile`, the config,
   * .env and store all follow it, so read them inside a handler, never once when the routes are built.
   */
  readonly switchProfile: (name: string) => Promise<void>;
  /** config.yaml and .env, read afresh per call (a change made with the CLI shows without a restart). */
  readonly currentConfig: () => Promise<Readonly<Config>>;
  readonly currentEnv: () => Promise<Env>;
  /** The store when one exists (SQLite: no state.db yet → undefined, and none is created). */
  readonly existingStore: () => Promise<Store | undefined>;
  /** The store, created when missing (for writes: a chat's first message). */
  readonly store: () => Promise<Store>;
  /** The JSON body: 415 for another type, 413/408 from the reader, 400 when it is not JSON. */
  readonly readJson: (req: IncomingMessage) => Promise<unknown>;
  /** Runs a write and records it in audit.log, done or refused; `target` is read after the work. */
  readonly audited: <T>(request: RouteRequest, action: string, target: () => string, work: () => Promise<T>) => Promise<T>;
};

/** readJson's refusal of a body that is not JSON (400; /api/model/set answers it 422, as DECISIONS pins). */
export const NOT_JSON = 'the body is not JSON';

export type RouteArea = (context: DashboardContext) => readonly Route[];

/** The route for a method and path, with its params; `allow` lists the methods the path has when the method is wrong. */
export function matchRoute(
  routes: readonly Route[],
  method: string,
  pathname: string,
): { readonly route: Route; readonly params: Record<string, string> } | { readonly allow: string } | undefined {
  const allowed: string[] = [];
  for (const route of routes) {
    const params = matchPath(route.path, pathname);
    if (!params) continue;
    if (route.method === method) return { route, params };
    allowed.push(route.method);
  }
  return allowed.length > 0 ? { allow: [...new Set(allowed)].join(', ') } : undefined;
}

/** `/api/sessions/:id` against `/api/sessions/abc` → `{id: "abc"}`; a param never spans a `/`, and is never empty. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const have = pathname.split('/');
  if (want.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i += 1) {
    const part = want[i]!;
    const got = have[i]!;
    if (part.startsWith(':')) {
      if (got === '') return undefined;
      let decoded: string;
      try {
        decoded = decodeURIComponent(got);
      } catch {
        return undefined;
      }
      params[part.slice(1)] = decoded;
    } else if (part !== got) {
      return undefined;
    }
  }
  return params;
}
