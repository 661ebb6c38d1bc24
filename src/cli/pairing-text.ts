// `iris pairing list` as text and as JSON: the pending codes (who asked, in which chat, how long the
// code still works) and the approved users, in two sections. Pure: store records and the time in,
// text or a JSON document out.
import { lastActive, oneLine } from '../agent/sessions/listing.js';
import type { ApprovedUser, PairingRequest } from '../store/platform-types.js';
import { formatTable } from './table.js';

export type PairingListJson = {
  readonly pending: ReadonlyArray<{
    readonly platform: string;
    readonly code: string;
    readonly user_id: string;
    readonly user_name: string | null;
    readonly chat_id: string;
    readonly created_at: string;
    readonly expires_at: string;
  }>;
  readonly approved: ReadonlyArray<ApprovedUserJson>;
};

export type ApprovedUserJson = { readonly platform: string; readonly user_id: string; readonly user_name: string | null; readonly approved_at: string };

const iso = (at: number) => new Date(at).toISOString();

export function approvedUserJson(user: ApprovedUser): ApprovedUserJson {
  return { platform: user.platform, user_id: user.userId, user_name: user.userName, approved_at: iso(user.approvedAt) };
}

export function pairingListJson(pending: readonly PairingRequest[], approved: readonly ApprovedUser[]): PairingListJson {
  return {
    pending: pending.map((r) => ({
      platform: r.platform,
      code: r.code,
      user_id: r.userId,
      user_name: r.userName,
      chat_id: r.chatId,
      created_at: iso(r.createdAt),
      expires_at: iso(r.expiresAt),
    })),
    approved: approved.map(approvedUserJson),
  };
}

/** `59m`, `30s`: a code lives an hour, so minutes are as coarse as it gets; `expired` past the end. */
export function expiresIn(expiresAt: number, now: number): string {
  const seconds = Math.floor((expiresAt - now) / 1000);
  if (seconds <= 0) return 'expired';
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m`;
}

// Names come from the platform (anyone can pick one): one line, bounded, so the table holds.
const name = (userName: string | null) => (userName === null ? '' : oneLine(userName, 30));

const PENDING_HEADER = ['PLATFORM', 'CODE', 'USER', 'NAME', 'CHAT', 'EXPIRES IN'] as const;
const APPROVED_HEADER = ['PLATFORM', 'USER', 'NAME', 'APPROVED'] as const;

export function pairingListText(pending: readonly PairingRequest[], approved: readonly ApprovedUser[], now: number): string {
  const pendingPart =
    pending.length === 0
      ? 'pending codes: none'
      : `pending codes (iris pairing approve <platform> <code>):\n${formatTable(
          PENDING_HEADER,
          pending.map((r) => [r.platform, r.code, r.userId, name(r.userName), r.chatId, expiresIn(r.expiresAt, now)]),
        )}`;
  const approvedPart =
    approved.length === 0
      ? 'approved users: none'
      : `approved users (iris pairing revoke <platform> <user>):\n${formatTable(
          APPROVED_HEADER,
          approved.map((u) => [u.platform, u.userId, name(u.userName), lastActive(u.approvedAt, now)]),
        )}`;
  return `${pendingPart}\n\n${approvedPart}`;
}

/** `telegram user 123 (Ada)`: who a command acted on. */
export function userLabel(platform: string, userId: string, userName: string | null): string {
  return `${platform} user ${userId}${userName === null ? '' : ` (${oneLine(userName, 30)})`}`;
}
