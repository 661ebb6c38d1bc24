// Serving the built UI (dist/dashboard/, made by `npm run build`) from the package. index.html
// gets this start's session token, in a script the Content-Security-Policy allows by nonce; every
// other file is served as built, and only from inside that folder.
import { readFile, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** dist/dashboard of the package this code runs from (the bundle in dist/, or src/ under tests). */
export function builtUiDir(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from);
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'bin', 'iris'))) return join(dir, 'dist', 'dashboard');
    const parent = dirname(dir);
    if (parent === dir) return join(dirname(from), 'dashboard');
    dir = parent;
  }
}

export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The page with the token global added right before </head>; `signedIn` (a sign-in dashboard)
 * also tells the page to offer Sign out.
 */
export function injectToken(html: string, token: string, nonce: string, signedIn = false): string {
  const globals = `window.__DASHBOARD_AUTH_TOKEN__=${JSON.stringify(token)};${signedIn ? 'window.__DASHBOARD_SIGNED_IN__=true;' : ''}`;
  const script = `<script nonce="${nonce}">${globals}</script>`;
  return html.includes('</head>') ? html.replace('</head>', `${script}</head>`) : `${script}${html}`;
}

export type StaticFile = { readonly status: 200; readonly type: string; readonly body: Buffer } | { readonly status: 404 };

/** A file under `root` for a URL path; `..` and anything resolving outside the folder is a 404. */
export async function readStatic(root: string, urlPath: string): Promise<StaticFile> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return { status: 404 };
  }
  if (decoded.includes('\0')) return { status: 404 };
  const file = resolve(root, `.${decoded}`);
  if (!file.startsWith(`${resolve(root)}${sep}`)) return { status: 404 };
  try {
    if (!(await stat(file)).isFile()) return { status: 404 };
    return { status: 200, type: TYPES[extname(file)] ?? 'application/octet-stream', body: await readFile(file) };
  } catch {
    return { status: 404 };
  }
}
