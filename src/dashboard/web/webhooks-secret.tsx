// A new route's secret, the one time the server shows it: in a box with a Copy button and the
// warning that it will not be shown again. Closing the box forgets it in the page too.
import { useEffect, useRef, useState } from 'react';

export function SecretOnce({ name, url, secret, onClose }: { name: string; url: string; secret: string; onClose: () => void }) {
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('copied');
    } catch {
      // No clipboard (a page not served over https or localhost, or a refusal): select the text instead.
      const range = document.createRange();
      const code = box.current?.querySelector('code.webhooks-secret-value');
      if (code) {
        range.selectNodeContents(code);
        window.getSelection()?.removeAllRanges();
        window.getSelection()?.addRange(range);
      }
      setCopied('failed');
    }
  };

  return (
    <div className="notice webhooks-secret" role="group" aria-label={`Secret of route ${name}`} tabIndex={-1} ref={box}>
      <p>
        <strong>Route {name} is ready.</strong> Put this address and secret in the code host’s webhook settings now:
      </p>
      <p className="webhooks-secret-row">
        <span className="webhooks-secret-label">Payload URL</span> <code>{url}</code>
      </p>
      <p className="webhooks-secret-row">
        <span className="webhooks-secret-label">Secret</span> <code className="webhooks-secret-value">{secret}</code>
      </p>
      <p className="webhooks-secret-warning">This secret will not be shown again. If you lose it, remove the route and subscribe it anew.</p>
      <div className="webhooks-actions">
        <button type="button" onClick={() => void copy()}>
          Copy secret
        </button>
        <button type="button" onClick={onClose}>
          I have stored it
        </button>
        <span className="hint" role="status">
          {copied === 'copied' ? 'Copied.' : copied === 'failed' ? 'The browser refused the clipboard: the secret is selected, copy it with Ctrl+C.' : ''}
        </span>
      </div>
    </div>
  );
}
