// Reading a hub index or a SKILL.md from where it lives: an http(s) URL (through the fetch guard,
// since a hub names its entries' URLs; one timer for the whole download, reading stops at the cap)
// or a local path (size checked before reading). Failures are values with a sentence that names
// the source.
import { readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { downloadBytes, isHttpUrl } from '../agent/tools/vision/download.js';
import { errnoMessage } from '../config/result.js';
import type { FetchGuard } from '../net/fetch-guard.js';

export type SourceOptions = {
  readonly timeoutMs: number;
  readonly maxBytes: number;
};

export type SourceRead = { readonly ok: true; readonly bytes: Buffer } | { readonly ok: false; readonly error: string };

export type ReadSource = (source: string, options: SourceOptions) => Promise<SourceRead>;

const megabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

/** Reads sources, fetching URLs through `guard` (tools.web, the proxy). */
export const sourceReader = (guard: FetchGuard): ReadSource => async (source, options) => {
  if (isHttpUrl(source)) {
    const download = await downloadBytes(source, { ...options, guard, accept: 'application/json, text/markdown, text/plain, */*' });
    return download.ok ? { ok: true, bytes: download.bytes } : download;
  }
  const path = resolve(source);
  try {
    const info = await stat(path);
    if (!info.isFile()) return { ok: false, error: `${path} is not a file` };
    if (info.size > options.maxBytes) return { ok: false, error: `${path} is larger than ${megabytes(options.maxBytes)}` };
    return { ok: true, bytes: await readFile(path) };
  } catch (err) {
    return { ok: false, error: `cannot read ${path}: ${errnoMessage(err)}` };
  }
};

/**
 * Where an index entry's `url` points: absolute as written, else relative to its hub. A hub on a
 * server may point at http(s) only (never at a file of this machine); undefined when it does not.
 */
export function entryLocation(hub: string, url: string): string | undefined {
  if (isHttpUrl(url)) return url;
  if (isHttpUrl(hub)) {
    const href = URL.canParse(url, hub) ? new URL(url, hub).href : '';
    return isHttpUrl(href) ? href : undefined;
  }
  return resolve(dirname(resolve(hub)), url);
}

/** Bytes as UTF-8 text, or undefined when they are not (a SKILL.md and an index are text). */
export function utf8Text(bytes: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
