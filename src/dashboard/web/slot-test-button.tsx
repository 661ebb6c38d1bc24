// A slot's Test button: one short request through that slot's routing (POST /api/model/test),
// then who answered, how long it took and every route tried before it. The model's reply is not
// shown: the question is whether the route works, and the reply is a stranger's text.
import { useRef, useState } from 'react';
import type { FallbacksClient, SlotTestResult } from './fallback-api.js';
import { attemptLines, testHeadline } from './slot-test-view.js';

type Props = {
  readonly client: FallbacksClient;
  /** `main` or an aux task id. */
  readonly task: string;
  /** The slot's display name, for the button's accessible name. */
  readonly name: string;
};

export function SlotTestButton({ client, task, name }: Props) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<SlotTestResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Not `disabled` while busy: a disabled button drops the keyboard user's focus.
  const running = useRef(false);

  const run = async () => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setError(null);
    const answer = await client.test(task);
    running.current = false;
    setBusy(false);
    setResult(answer.ok ? answer.value : null);
    setError(answer.ok ? null : answer.error);
  };

  const lines = result ? attemptLines(result.attempts) : [];
  return (
    <div className="slot-test" data-test-slot={task}>
      <button type="button" className="test" aria-label={`Test ${name}`} aria-busy={busy || undefined} onClick={() => void run()}>
        {busy ? 'Testing…' : 'Test'}
      </button>
      <div className="slot-test-result" aria-live="polite">
        {result?.ok === true && <p className="test-answered">{testHeadline(result)}</p>}
        {result?.ok === false && (
          <p className="error" role="alert">
            {testHeadline(result)}
            {/* The attempts below say why each route failed; with none, the error is the reason. */}
            {lines.length === 0 ? ` ${result.error}` : ''}
          </p>
        )}
        {lines.length > 0 && (
          <ul className="test-attempts" aria-label={`Routes tried before for ${name}`}>
            {lines.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ul>
        )}
        {error !== null && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}
