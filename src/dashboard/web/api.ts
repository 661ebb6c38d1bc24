// The page's only way to the server: each call carries the session token, and every failure comes
// back as a message to show inline, never as a thrown error.
import type * as z from 'zod/mini';
import {
  AuxiliarySchema,
  DescribeAnswerSchema,
  ModelOptionsSchema,
  ProfilesSchema,
  SetAnswerSchema,
  UsageSchema,
  type Auxiliary,
  type DescribeAnswer,
  type ModelOptions,
  type Profiles,
  type SetAnswer,
  type SetRequest,
  type Usage,
} from './api-types.js';

import { auxTargetToWire } from '../../domain/assignment.js';

export type ApiResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

export type DashboardApi = {
  readonly options: () => Promise<ApiResult<ModelOptions>>;
  readonly auxiliary: () => Promise<ApiResult<Auxiliary>>;
  readonly usage: (since: string) => Promise<ApiResult<Usage>>;
  readonly set: (request: SetRequest) => Promise<ApiResult<SetAnswer>>;
  readonly profiles: () => Promise<ApiResult<Profiles>>;
  readonly describeProfile: (profile: string) => Promise<ApiResult<DescribeAnswer>>;
  /** Ends the signed-in session (a sign-in dashboard); the page then goes to /login. */
  readonly signOut: () => Promise<ApiResult<null>>;
  /** Any other JSON call, with the token and the same failure messages (each page's own client builds on it). */
  readonly request: <T>(path: string, schema: z.ZodMiniType<T>, init?: RequestInit) => Promise<ApiResult<T>>;
  /** fetch() with the token header, for a response read as a stream (the chat's events). */
  readonly fetchWithToken: (path: string, init?: RequestInit) => Promise<Response>;
};

/** What the server says when a sign-in dashboard's session has ended (12 h idle, a restart, a sign-out elsewhere). */
export const SIGN_IN_FIRST = 'Sign in first';

export const TOKEN_HEADER = 'X-Service-Session-Token';

const UNAUTHORIZED =
  'The dashboard server refused this page’s session token (it changes on every restart): reload the page.';

/** The first problem of a failed parse, as `path: message`. */
function describeIssue(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'unexpected answer';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function errorText(body: unknown): string | undefined {
  if (body !== null && typeof body === 'object' && 'error' in body) {
    const error = body.error;
    if (typeof error === 'string' && error !== '') return error;
  }
  return undefined;
}

/** The REST body DECISIONS.md fixes: the aux target travels as the `task` string. */
export function setBody(request: SetRequest): Record<string, string> {
  if (request.scope === 'main') return { scope: 'main', provider: request.provider, model: request.model };
  return { scope: 'auxiliary', task: auxTargetToWire(request.target), provider: request.provider, model: request.model };
}

export function createApi(
  token: string,
  fetchFn: typeof fetch = (...args) => fetch(...args),
  toSignIn: () => void = () => window.location.assign('/login'),
): DashboardApi {
  async function call<T>(path: string, schema: z.ZodMiniType<T>, init: RequestInit = {}): Promise<ApiResult<T>> {
    let response: Response;
    try {
      response = await fetchFn(path, {
        ...init,
        headers: { ...(init.headers as Record<string, string> | undefined), [TOKEN_HEADER]: token },
      });
    } catch {
      return { ok: false, error: 'Cannot reach the dashboard server. Is `iris dashboard` still running?' };
    }
    const body = await readJson(response);
    if (response.status === 401 && errorText(body) === SIGN_IN_FIRST) {
      toSignIn();
      return { ok: false, error: 'Your sign-in has ended: sign in again.' };
    }
    if (response.status === 401) return { ok: false, error: UNAUTHORIZED };
    if (!response.ok) return { ok: false, error: errorText(body) ?? `The server answered ${response.status}.` };
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      return { ok: false, error: `Unexpected answer from ${path.split('?')[0]}: ${describeIssue(parsed.error)}` };
    }
    return { ok: true, value: parsed.data };
  }

  return {
    request: call,
    fetchWithToken: (path, init = {}) => fetchFn(path, { ...init, headers: { ...(init.headers as Record<string, string> | undefined), [TOKEN_HEADER]: token } }),
    options: () => call('/api/model/options', ModelOptionsSchema),
    auxiliary: () => call('/api/model/auxiliary', AuxiliarySchema),
    usage: (since) => call(`/api/usage${since ? `?since=${encodeURIComponent(since)}` : ''}`, UsageSchema),
    set: (request) =>
      call('/api/model/set', SetAnswerSchema, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(setBody(request)),
      }),
    profiles: () => call('/api/profiles', ProfilesSchema),
    describeProfile: (profile) =>
      call('/api/profile/describe', DescribeAnswerSchema, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ profile }),
      }),
    signOut: async () => {
      try {
        const response = await fetchFn('/api/logout', { method: 'POST', headers: { [TOKEN_HEADER]: token } });
        if (response.status !== 204) return { ok: false, error: `The server answered ${response.status}.` };
      } catch {
        return { ok: false, error: 'Cannot reach the dashboard server. Is `iris dashboard` still running?' };
      }
      toSignIn();
      return { ok: true, value: null };
    },
  };
}
