// The dashboard's exposure: where a running one listens and how it signs people in, or, when none
// runs, what a non-loopback --host would sign in with. A trusted proxy range that takes in everyone
// (a /0) is a warning: anyone could then name themselves in the header. Pure.
import type { SignInKind } from '../../dashboard/address-file.js';
import { ok, warn, type CheckResult } from '../types.js';

export type DashboardFacts = {
  readonly running: { readonly host: string; readonly port: number; readonly loopback: boolean; readonly signIn: SignInKind } | undefined;
  readonly passwordSet: boolean;
  readonly proxy: { readonly header: string; readonly from: readonly string[] } | undefined;
};

const ID = 'dashboard';

const SIGN_IN_WORDS: Readonly<Record<SignInKind, string>> = {
  token: 'none (the page carries the token)',
  password: 'the password',
  proxy: 'the trusted proxy',
  'password+proxy': 'the password or the trusted proxy',
};

/** Undefined when there is nothing to say: no dashboard running, and neither a password nor a proxy set. */
export function checkDashboard(facts: DashboardFacts): CheckResult | undefined {
  const wide = facts.proxy?.from.filter((range) => /\/0$/.test(range.trim())) ?? [];
  if (wide.length > 0) {
    return warn(ID, ID, `dashboard.trusted_proxy.from has ${wide.join(', ')}: anyone who reaches the dashboard can sign in by sending ${facts.proxy!.header}`, "list only the proxy's own addresses in dashboard.trusted_proxy.from (e.g. 127.0.0.1/32)");
  }
  const ways = [facts.passwordSet ? 'the password' : '', facts.proxy ? `the ${facts.proxy.header} header from ${facts.proxy.from.join(', ')}` : ''].filter(Boolean);
  if (facts.running) {
    const { host, port, loopback, signIn } = facts.running;
    const reach = loopback ? 'this machine only' : 'other machines can reach it';
    return ok(ID, ID, `running on ${host.includes(':') ? `[${host}]` : host}:${port} (${reach}); sign-in: ${SIGN_IN_WORDS[signIn]}`);
  }
  if (ways.length === 0) return undefined;
  return ok(ID, ID, `not running; it signs people in with ${ways.join(' or ')}`);
}
