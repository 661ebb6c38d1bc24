// Pairing as the operator runs it (`iris pairing list|approve|revoke` and the dashboard's Platforms
// page): the same checks and the same refusals, as values, so the CLI prints them and the page
// shows them. A missing store (SQLite without state.db) means nobody has asked yet: the caller
// passes undefined and gets "nothing pending", "unknown code", "not approved".
import { CHAT_PLATFORMS, isPlatformName, type PlatformName } from '../domain/platforms.js';
import type { ApprovedUser, PairingRequest, PlatformStore } from '../store/platform-types.js';
import { normalisePairingCode } from './access.js';

export type PairingRefusal = { readonly ok: false; readonly code: 'unknown_code' | 'not_approved'; readonly error: string };

export function parsePlatformName(text: string): { readonly ok: true; readonly platform: PlatformName } | { readonly ok: false; readonly error: string } {
  if (!isPlatformName(text)) return { ok: false, error: `unknown platform "${text}" (platforms: ${CHAT_PLATFORMS.join(', ')})` };
  return { ok: true, platform: text };
}

export type PairingList = { readonly pending: PairingRequest[]; readonly approved: ApprovedUser[] };

export async function listPairing(platforms: PlatformStore | undefined, now: number, platform?: PlatformName): Promise<PairingList> {
  if (!platforms) return { pending: [], approved: [] };
  return { pending: await platforms.pendingPairings(now, platform), approved: await platforms.approvedUsers(platform) };
}

/** The code's user approved; codes are compared in upper case (the rule /approve in a chat uses too). */
export async function approvePairingCode(
  platforms: PlatformStore | undefined,
  platform: PlatformName,
  codeText: string,
  now: number,
): Promise<{ readonly ok: true; readonly user: ApprovedUser } | PairingRefusal> {
  const code = normalisePairingCode(codeText);
  const user = platforms ? await platforms.approvePairing(platform, code, now) : undefined;
  if (!user) return { ok: false, code: 'unknown_code', error: `no pending pairing code ${code} on ${platform}: it expired (codes last an hour) or was never issued; iris pairing list shows the pending ones` };
  return { ok: true, user };
}

export async function revokePairedUser(platforms: PlatformStore | undefined, platform: PlatformName, userId: string): Promise<{ readonly ok: true } | PairingRefusal> {
  const revoked = platforms ? await platforms.revokeUser(platform, userId) : false;
  if (!revoked) return { ok: false, code: 'not_approved', error: `${platform} user ${userId} is not approved; nothing to revoke (iris pairing list shows the approved users)` };
  return { ok: true };
}
