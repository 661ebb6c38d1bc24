// GET /login: the sign-in page, self-contained (no token, no build needed): the dashboard's
// colours, a password field, and a script that posts it to /api/login and goes to / on success.
// Its style and script run under a nonce; the page allows nothing else.

export function loginPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const STYLE = `
:root{--bg:#f6f7f9;--panel:#fff;--text:#1b1f24;--muted:#5a6470;--line:#d9dee4;--accent:#2257c9;--accent-text:#fff;--error:#b42318;--error-soft:#fdecea;--focus:#f59e0b;
color-scheme:light dark;font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;font-size:15px;line-height:1.45;color:var(--text);background:var(--bg)}
@media (prefers-color-scheme:dark){:root{--bg:#14171b;--panel:#1d2126;--text:#e7eaee;--muted:#a2acb8;--line:#333a42;--accent:#7aa2f7;--accent-text:#0d1117;--error:#ff8a80;--error-soft:#3a1f1d}}
*{box-sizing:border-box}body{margin:0}
.topbar{display:flex;align-items:center;gap:1.25rem;padding:.7rem 1.5rem;background:var(--panel);border-bottom:1px solid var(--line)}
.brand{font-weight:700;letter-spacing:.02em}
main{max-width:24rem;margin:4rem auto;padding:0 1rem}
.card{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:1.5rem}
h1{font-size:1.35rem;margin:0 0 .4rem}p{margin:0 0 1rem;color:var(--muted)}
label{display:block;font-weight:600;margin-bottom:.35rem}
input{width:100%;font:inherit;padding:.55rem .7rem;border:1px solid var(--line);border-radius:8px;background:var(--bg);color:var(--text)}
button{margin-top:1rem;width:100%;font:inherit;font-weight:600;padding:.6rem;border:0;border-radius:8px;background:var(--accent);color:var(--accent-text);cursor:pointer}
button:disabled{opacity:.6;cursor:wait}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.error{margin-top:1rem;padding:.6rem .75rem;border-radius:8px;background:var(--error-soft);color:var(--error)}
.error:empty{display:none}
`;

const SCRIPT = `
const form = document.getElementById('sign-in');
const field = document.getElementById('password');
const error = document.getElementById('error');
const button = form.querySelector('button');
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  error.textContent = '';
  button.disabled = true;
  try {
    const response = await fetch('/api/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ password: field.value }) });
    if (response.status === 204) { location.replace('/'); return; }
    let message = 'The server answered ' + response.status + '.';
    try { const body = await response.json(); if (body && typeof body.error === 'string') message = body.error; } catch {}
    if (response.status === 429) message += (message.endsWith('.') ? '' : '.') + ' Try again in ' + (response.headers.get('Retry-After') || '60') + ' s.';
    error.textContent = message;
    field.select();
  } catch {
    error.textContent = 'Cannot reach the dashboard server. Is iris dashboard still running?';
  } finally {
    button.disabled = false;
  }
});
`;

/** `passwordSet`: false behind a trusted proxy with no password (the page then says where to sign in). */
export function loginPage(nonce: string, passwordSet: boolean): string {
  const body = passwordSet
    ? `<form id="sign-in" class="card" novalidate>
<h1>Sign in</h1>
<p>This dashboard changes the models and settings of this Iris. Enter its password.</p>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
<button type="submit">Sign in</button>
<div id="error" class="error" role="alert" aria-live="assertive"></div>
</form>`
    : `<div class="card"><h1>Sign in through the proxy</h1><p>This dashboard has no password: it is opened only through the reverse proxy that signs people in. Use the address the proxy serves.</p></div>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><link rel="icon" href="data:,">
<title>Sign in · Iris dashboard</title><style nonce="${nonce}">${STYLE}</style></head>
<body><header class="topbar"><span class="brand">Iris</span></header>
<main>${body}</main>
${passwordSet ? `<script nonce="${nonce}">${SCRIPT}</script>` : ''}
</body></html>`;
}
