// The Test button: one message queued in the outbox for the home channel (or a chat typed here),
// the way `iris send` queues it; then the outcome, followed for a few seconds until it is sent or
// failed (the gateway sends it; without one it waits).
import { useEffect, useId, useRef, useState } from 'react';
import type { PlatformsClient } from './platforms-api.js';
import { testOutcomeText } from './platforms-view.js';

const FOLLOW_MS = 1_000;
const FOLLOW_TRIES = 15;

export function PlatformTest({ platform, homeChannel, gatewayRunning, client }: { platform: string; homeChannel: string | null; gatewayRunning: boolean; client: PlatformsClient }) {
  const id = useId();
  const [chat, setChat] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const alive = useRef(true);
  useEffect(() => () => void (alive.current = false), []);

  const send = async () => {
    setBusy(true);
    setError(null);
    setOutcome(null);
    const typed = chat.trim();
    const result = await client.test(platform, typed === '' ? null : typed);
    if (!result.ok) {
      setBusy(false);
      return setError(result.error);
    }
    const where = result.value.chat_id;
    setOutcome(testOutcomeText(where, { id: result.value.id, state: 'queued', last_error: null }, gatewayRunning));
    for (let i = 0; i < FOLLOW_TRIES && alive.current; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, FOLLOW_MS));
      const state = await client.outbox(platform, result.value.id);
      if (!state.ok || !alive.current) break;
      setOutcome(testOutcomeText(where, state.value, gatewayRunning));
      if (state.value.state !== 'queued') break;
    }
    setBusy(false);
  };

  return (
    <section className="platform-section" aria-label={`${platform} test message`}>
      <h3>Test</h3>
      <div className="platform-test">
        <label htmlFor={id}>Chat id</label>
        <input id={id} type="text" value={chat} maxLength={200} placeholder={homeChannel === null ? 'no home channel: type a chat id' : `home channel ${homeChannel}`} onChange={(event) => setChat(event.target.value)} />
        <button type="button" onClick={() => void send()} disabled={busy}>
          {busy ? 'Sending…' : 'Send test message'}
        </button>
      </div>
      <p className="status platform-test-outcome" role="status">
        {outcome ?? ''}
      </p>
      {error !== null && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
