// `iris pairing list | approve | revoke`: who may talk to the bot on a chat platform. A stranger's
// direct message gets a one-time code (valid an hour, stored by the gateway); approving the code
// adds the user to the approved users in state.db. Reads and changes only what exists: without a
// state.db nobody has asked yet, so there is nothing to approve or revoke.
import { CHAT_PLATFORMS, isPlatformName, type PlatformName } from '../../domain/platforms.js';
import { normalisePairingCode } from '../../platforms/access.js';
import { printData, printError, printJson } from '../console.js';
import { openHome } from '../context.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import { withExistingStore } from '../open-store.js';
import { approvedUserJson, pairingListJson, pairingListText, userLabel } from '../pairing-text.js';

type JsonOption = { json?: boolean };

export function parsePlatform(text: string): PlatformName {
  if (!isPlatformName(text)) throw new CliFailure('usage', `unknown platform "${text}" (platforms: ${CHAT_PLATFORMS.join(', ')})`);
  return text;
}

/** Codes are shown in upper case; one typed in lower case is the same code (one rule, shared with /approve in a chat). */
export const normaliseCode = normalisePairingCode;

/** A refusal: the reason on stderr, with --json also as the document on stdout; exit 1. */
function refused(code: 'unknown_code' | 'not_approved', error: string, options: JsonOption): number {
  printError(error);
  if (options.json) printJson({ ok: false, code, error });
  return EXIT.failure;
}

export async function pairingList(options: JsonOption & { platform?: string }): Promise<void> {
  const platform = options.platform === undefined ? undefined : parsePlatform(options.platform);
  const now = Date.now();
  const { pending, approved } = await withExistingStore(
    await openHome(),
    async (store) => ({ pending: await store.platforms.pendingPairings(now, platform), approved: await store.platforms.approvedUsers(platform) }),
    () => ({ pending: [], approved: [] }),
  );
  if (options.json) return printJson(pairingListJson(pending, approved));
  printData(pairingListText(pending, approved, now));
}

export async function pairingApprove(platformText: string, codeText: string, options: JsonOption): Promise<number> {
  const platform = parsePlatform(platformText);
  const code = normaliseCode(codeText);
  const approved = await withExistingStore(await openHome(), (store) => store.platforms.approvePairing(platform, code, Date.now()), () => undefined);
  if (!approved) return refused('unknown_code', `no pending pairing code ${code} on ${platform}: it expired (codes last an hour) or was never issued; iris pairing list shows the pending ones`, options);
  if (options.json) printJson(approvedUserJson(approved));
  else printData(`approved ${userLabel(approved.platform, approved.userId, approved.userName)}`);
  return EXIT.ok;
}

export async function pairingRevoke(platformText: string, userId: string, options: JsonOption): Promise<number> {
  const platform = parsePlatform(platformText);
  const revoked = await withExistingStore(await openHome(), (store) => store.platforms.revokeUser(platform, userId), () => false);
  if (!revoked) return refused('not_approved', `${platform} user ${userId} is not approved; nothing to revoke (iris pairing list shows the approved users)`, options);
  if (options.json) printJson({ platform, user_id: userId, revoked: true });
  else printData(`revoked ${platform} user ${userId}: their messages start no run until they pair again`);
  return EXIT.ok;
}
