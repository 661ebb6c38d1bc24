// Signed-in dashboard sessions, in memory (DECISIONS: a restart signs everyone out, like the
// token): a random id in the `iris_session` cookie, valid for 12 h from the last request. Bounded:
// past the cap the session unused the longest is dropped first.
import { randomBytes } from 'node:crypto';

export const SESSION_COOKIE = 'iris_session';
export const SESSION_IDLE_MS = 12 * 60 * 60_000;
const MAX_SESSIONS = 1_000;

export type SignedInSession = { readonly actor: string; readonly lastSeen: number };

export type SessionStoreOptions = {
  readonly idleMs?: number;
  readonly max?: number;
  readonly now?: () => number;
  readonly newId?: () => string;
};

export function createSessionStore(options: SessionStoreOptions = {}) {
  const idleMs = options.idleMs ?? SESSION_IDLE_MS;
  const max = options.max ?? MAX_SESSIONS;
  const now = options.now ?? Date.now;
  const newId = options.newId ?? (() => randomBytes(32).toString('base64url'));
  // Insertion order is use order: a touched session is moved to the end.
  const sessions = new Map<string, SignedInSession>();

  return {
    /** A new session for `actor`; its id goes in the cookie. */
    create(actor: string): string {
      const id = newId();
      sessions.set(id, { actor, lastSeen: now() });
      while (sessions.size > max) sessions.delete(sessions.keys().next().value!);
      return id;
    },
    /** The session's actor when `id` names a live one (and its 12 h start again), else undefined. */
    touch(id: string | undefined): string | undefined {
      if (id === undefined) return undefined;
      const session = sessions.get(id);
      if (!session) return undefined;
      sessions.delete(id);
      if (now() - session.lastSeen > idleMs) return undefined;
      sessions.set(id, { actor: session.actor, lastSeen: now() });
      return session.actor;
    },
    end(id: string | undefined): void {
      if (id !== undefined) sessions.delete(id);
    },
    size: () => sessions.size,
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;

/** The value of cookie `name` in a Cookie header, or undefined. Pure. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The Set-Cookie value that starts (or, with `id` undefined, ends) a session. Pure. */
export function sessionCookie(id: string | undefined, secure: boolean): string {
  const parts = [`${SESSION_COOKIE}=${id ?? ''}`, 'HttpOnly', 'SameSite=Strict', 'Path=/'];
  if (id === undefined) parts.push('Max-Age=0');
  if (secure) parts.push('Secure');
  return parts.join('; ');
}
