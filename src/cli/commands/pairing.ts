// `iris pairing list | approve | revoke`: who may talk to the bot on a chat platform. A stranger's
// direct message gets a one-time code (valid an hour, stored by the gateway); approving the code
// adds the user to the approved users in state.db. Reads and changes only what exists: without a
// state.db nobody has asked yet, so there is nothing to approve or revoke.
import type { PlatformName } from '../../domain/platforms.js';
import { normalisePairingCode } from '../../platforms/access.js';
import { approvePairingCode, listPairing, parsePlatformName, revokePairedUser, type PairingRefusal } from '../../platforms/pairing-admin.js';
import type { PlatformStore } from '../../store/platform-types.js';
import { printData, printError, printJson } from '../console.js';
import { openHome } from '../context.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import { withExistingStore } from '../open-store.js';
import { approvedUserJson, pairingListJson, pairingListText, userLabel } from '../pairing-text.js';

type JsonOption = { json?: boolean };

export function parsePlatform(text: string): PlatformName {
  const parsed = parsePlatformName(text);
  if (!parsed.ok) throw new CliFailure('usage', parsed.error);
  return parsed.platform;
}

/** Codes are shown in upper case; one typed in lower case is the same code (one rule, shared with /approve in a chat). */
export const normaliseCode = normalisePairingCode;

/** A refusal: the reason on stderr, with --json also as the document on stdout; exit 1. */
function refused({ code, error }: PairingRefusal, options: JsonOption): number {
  printError(error);
  if (options.json) printJson({ ok: false, code, error });
  return EXIT.failure;
}

/** `work` on the home's platform store, or on none (undefined) when there is no state.db yet. */
async function onPlatformStore<T>(work: (platforms: PlatformStore | undefined) => Promise<T>): Promise<T> {
  const done = await withExistingStore(await openHome(), async (store) => ({ value: await work(store.platforms) }), () => undefined);
  return done ? done.value : work(undefined);
}

export async function pairingList(options: JsonOption & { platform?: string }): Promise<void> {
  const platform = options.platform === undefined ? undefined : parsePlatform(options.platform);
  const now = Date.now();
  const { pending, approved } = await onPlatformStore((platforms) => listPairing(platforms, now, platform));
  if (options.json) return printJson(pairingListJson(pending, approved));
  printData(pairingListText(pending, approved, now));
}

export async function pairingApprove(platformText: string, codeText: string, options: JsonOption): Promise<number> {
  const platform = parsePlatform(platformText);
  const now = Date.now();
  const outcome = await onPlatformStore((platforms) => approvePairingCode(platforms, platform, codeText, now));
  if (!outcome.ok) return refused(outcome, options);
  const approved = outcome.user;
  if (options.json) printJson(approvedUserJson(approved));
  else printData(`approved ${userLabel(approved.platform, approved.userId, approved.userName)}`);
  return EXIT.ok;
}

export async function pairingRevoke(platformText: string, userId: string, options: JsonOption): Promise<number> {
  const platform = parsePlatform(platformText);
  const outcome = await onPlatformStore((platforms) => revokePairedUser(platforms, platform, userId));
  if (!outcome.ok) return refused(outcome, options);
  if (options.json) printJson({ platform, user_id: userId, revoked: true });
  else printData(`revoked ${platform} user ${userId}: their messages start no run until they pair again`);
  return EXIT.ok;
}
