// A platform's pairing on the Platforms page: pending codes with Approve (what `iris pairing
// approve` does) and approved users with Revoke, which asks first. A failure shows inline.
import { useEffect, useRef, useState } from 'react';
import type { ApprovedUser, PendingCode, PlatformsClient } from './platforms-api.js';
import { ageText, userText } from './platforms-view.js';

type Props = {
  readonly platform: string;
  readonly pending: readonly PendingCode[];
  readonly approved: readonly ApprovedUser[];
  readonly client: PlatformsClient;
  /** Something changed: the page reloads, and says what happened. */
  readonly onChanged: (message: string) => void;
};

function RevokeConfirm({ who, busy, onRevoke, onCancel }: { who: string; busy: boolean; onRevoke: () => void; onCancel: () => void }) {
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => keep.current?.focus(), []);
  return (
    <div className="notice platform-confirm" role="group" aria-label={`Revoke ${who}?`}>
      <p>Revoke {who}? Their messages start no run until they pair again.</p>
      <div className="platform-actions">
        <button type="button" className="danger" onClick={onRevoke} disabled={busy}>
          {busy ? 'Revoking…' : 'Revoke'}
        </button>
        <button type="button" ref={keep} onClick={onCancel} onKeyDown={(event) => event.key === 'Escape' && onCancel()} disabled={busy}>
          Keep
        </button>
      </div>
    </div>
  );
}

export function PlatformPairing({ platform, pending, approved, client, onChanged }: Props) {
  const [busy, setBusy] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const approve = async (code: PendingCode) => {
    setBusy(`code:${code.code}`);
    setError(null);
    const result = await client.approve(platform, code.code);
    setBusy(null);
    if (!result.ok) return setError(result.error);
    onChanged(`Approved ${platform} user ${userText(result.value.user_id, result.value.user_name)}: their next message is answered.`);
  };

  const revoke = async (user: ApprovedUser) => {
    setBusy(`user:${user.user_id}`);
    setError(null);
    const result = await client.revoke(platform, user.user_id);
    setBusy(null);
    setConfirming(null);
    if (!result.ok) return setError(result.error);
    onChanged(`Revoked ${platform} user ${userText(user.user_id, user.user_name)}.`);
  };

  return (
    <>
      <section className="platform-section" aria-label={`${platform} pending codes`}>
        <h3>Pending codes</h3>
        {pending.length === 0 ? (
          <p className="hint">None. A stranger who messages the bot directly gets a code here, valid for an hour.</p>
        ) : (
          <ul className="platform-list">
            {pending.map((code) => (
              <li key={code.code} className="platform-item">
                <span>
                  <code className="platform-code">{code.code}</code> from {userText(code.user_id, code.user_name)} in chat <code>{code.chat_id}</code>, {ageText(code.age_seconds)}
                </span>
                <button type="button" onClick={() => void approve(code)} disabled={busy !== null} aria-label={`Approve ${code.code}`}>
                  {busy === `code:${code.code}` ? 'Approving…' : 'Approve'}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="platform-section" aria-label={`${platform} approved users`}>
        <h3>Approved users</h3>
        {approved.length === 0 ? (
          <p className="hint">None approved by pairing yet.</p>
        ) : (
          <ul className="platform-list">
            {approved.map((user) => (
              <li key={user.user_id} className="platform-item">
                <span>
                  {userText(user.user_id, user.user_name)}, since {new Date(user.approved_at).toLocaleString()}
                </span>
                {confirming === user.user_id ? (
                  <RevokeConfirm who={userText(user.user_id, user.user_name)} busy={busy !== null} onRevoke={() => void revoke(user)} onCancel={() => setConfirming(null)} />
                ) : (
                  <button type="button" onClick={() => setConfirming(user.user_id)} disabled={busy !== null} aria-label={`Revoke ${user.user_id}`}>
                    Revoke
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      {error !== null && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
