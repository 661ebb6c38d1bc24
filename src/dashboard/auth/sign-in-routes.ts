// The sign-in endpoints (DECISIONS § Dashboard sign-in and roles): GET /login, POST /api/login,
// POST /api/logout. Each sign-in, failed sign-in and sign-out is a line in logs/audit.log.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as z from 'zod/mini';
import type { AuditLog } from '../../security/audit-log.js';
import type { LoginLimiter } from './login-limiter.js';
import { loginPage, loginPolicy } from './login-page.js';
import { verifyPassword } from './password-hash.js';
import { sessionCookie, type SessionStore } from './sessions.js';
import { cameOverHttps, clientAddress, type Identity, type RequestFacts, type SignInMode } from './sign-in.js';

export type SignInRoutesDeps = {
  readonly mode: SignInMode;
  readonly sessions: SessionStore;
  readonly limiter: LoginLimiter;
  readonly audit: AuditLog;
  /** The request's JSON body (throws the server's HTTP error on a bad one). */
  readonly readJson: (req: IncomingMessage) => Promise<unknown>;
  readonly json: (res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>) => void;
};

const LoginSchema = z.object({ password: z.string() });

/** Who signs in with the password: one shared password, so one name. */
export const PASSWORD_ACTOR = 'password';

export function facts(req: IncomingMessage): RequestFacts {
  return { remoteAddress: req.socket.remoteAddress, headers: req.headers, encrypted: 'encrypted' in req.socket && req.socket.encrypted === true };
}

export function createSignInRoutes(deps: SignInRoutesDeps) {
  const { mode, sessions, limiter, audit, json } = deps;

  function noContent(res: ServerResponse, headers: Record<string, string>): void {
    res.writeHead(204, { 'cache-control': 'no-store', ...headers });
    res.end();
  }

  async function login(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (mode.kind === 'token') return json(res, 404, { error: 'Sign-in is off: this dashboard listens on loopback and has no password' });
    const request = facts(req);
    const from = clientAddress(mode, request);
    if (mode.passwordHash === undefined) {
      audit.write({ actor: 'anonymous', from, action: 'sign_in', ok: false, reason: 'no password is set' });
      return json(res, 403, { error: 'This dashboard has no password: sign in through its proxy' });
    }
    const gate = limiter.begin(from);
    if (!gate.ok) {
      audit.write({ actor: 'anonymous', from, action: 'sign_in', ok: false, reason: 'too many failed sign-ins' });
      return json(res, 429, { error: 'Too many failed sign-ins' }, { 'retry-after': String(gate.retryAfterSeconds) });
    }
    // Every try that passed the gate counts as a failure unless the password matched, a
    // malformed body included (it is a try too).
    let failure = 'malformed request';
    try {
      const parsed = LoginSchema.safeParse(await deps.readJson(req));
      if (!parsed.success) return json(res, 400, { error: 'send {"password": "<the dashboard password>"}' });
      failure = (await verifyPassword(parsed.data.password, mode.passwordHash)) ? '' : 'wrong password';
    } finally {
      limiter.settle(from, failure !== '');
      if (failure !== '') audit.write({ actor: 'anonymous', from, action: 'sign_in', ok: false, reason: failure });
    }
    if (failure !== '') return json(res, 401, { error: 'Wrong password' });
    const id = sessions.create(PASSWORD_ACTOR);
    audit.write({ actor: PASSWORD_ACTOR, from, action: 'sign_in', ok: true });
    noContent(res, { 'set-cookie': sessionCookie(id, cameOverHttps(mode, request)) });
  }

  function logout(req: IncomingMessage, res: ServerResponse, identity: Identity | undefined): void {
    const request = facts(req);
    if (identity && identity.via !== 'local') {
      sessions.end(identity.sessionId);
      audit.write({ actor: identity.actor, from: clientAddress(mode, request), action: 'sign_out', ok: true });
    }
    noContent(res, mode.kind === 'token' ? {} : { 'set-cookie': sessionCookie(undefined, cameOverHttps(mode, request)) });
  }

  function page(req: IncomingMessage, res: ServerResponse, identity: Identity | undefined): void {
    if (mode.kind === 'token' || identity) {
      res.writeHead(302, { location: '/', 'cache-control': 'no-store' });
      res.end();
      return;
    }
    const nonce = randomBytes(16).toString('base64');
    const body = Buffer.from(loginPage(nonce, mode.passwordHash !== undefined));
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': body.length,
      'content-security-policy': loginPolicy(nonce),
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  return { login, logout, page };
}
