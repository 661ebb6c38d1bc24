// Turning what a caller names as an image (an http(s) URL, a data: URL, or a file) into the bytes
// a model is sent. Every source passes the same two checks: at most IMAGE_MAX_BYTES, and bytes
// that really are PNG, JPEG, GIF or WebP (whatever the header or the file name says).
import { open } from 'node:fs/promises';
import { errnoMessage } from '../../../config/result.js';
import { isDataUrl, parseDataUrl } from './data-url.js';
import type { FetchGuard } from '../../../net/fetch-guard.js';
import { downloadBytes, isHttpUrl } from './download.js';
import { sniffImageType, type ImageMediaType } from './image-type.js';

/** DECISIONS.md § Side-job features: the download is capped at 20 MB. */
export const IMAGE_MAX_BYTES = 20 * 1024 * 1024;

export type LoadedImage = { readonly mediaType: ImageMediaType; readonly data: Buffer };

export type ImageResult = { readonly ok: true; readonly image: LoadedImage } | { readonly ok: false; readonly error: string };

export type ImageSourceDeps = {
  /** The vision slot's download_timeout, for the whole download. */
  readonly downloadTimeoutMs: number;
  /** Where an http(s) image may be fetched from (tools.web) and through which proxy. */
  readonly guard: FetchGuard;
  readonly signal?: AbortSignal;
  readonly maxBytes?: number;
  /** Where a path leads, or why it may not be read (the tool applies the workspace rules here). */
  readonly resolvePath: (path: string) => Promise<{ ok: true; absolute: string } | { ok: false; error: string }>;
};

export async function loadImage(input: string, deps: ImageSourceDeps): Promise<ImageResult> {
  const maxBytes = deps.maxBytes ?? IMAGE_MAX_BYTES;
  const label = describeSource(input);
  let bytes: Buffer;
  if (isDataUrl(input)) {
    const parsed = parseDataUrl(input, maxBytes);
    if (!parsed.ok) return parsed;
    bytes = parsed.value.bytes;
  } else if (isHttpUrl(input)) {
    const downloaded = await downloadBytes(input.trim(), {
      timeoutMs: deps.downloadTimeoutMs,
      maxBytes,
      guard: deps.guard,
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
    if (!downloaded.ok) return downloaded;
    bytes = downloaded.bytes;
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input.trim())) {
    return { ok: false, error: `${label}: only http(s) URLs, data: URLs and file paths are read` };
  } else {
    const resolved = await deps.resolvePath(input);
    if (!resolved.ok) return resolved;
    const read = await readCapped(resolved.absolute, maxBytes);
    if (!read.ok) return { ok: false, error: `${label}: ${read.error}` };
    bytes = read.bytes;
  }
  const mediaType = sniffImageType(bytes);
  if (!mediaType) return { ok: false, error: `${label} is not a PNG, JPEG, GIF or WebP image (checked by its first bytes)` };
  return { ok: true, image: { mediaType, data: bytes } };
}

export function megabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10}`;
}

/** A short name for messages: a data: URL is shown by its head only. */
export function describeSource(input: string): string {
  const trimmed = input.trim();
  if (isDataUrl(trimmed)) return `the data: URL (${trimmed.slice(0, trimmed.indexOf(',') + 1 || 30).slice(0, 60)}…)`;
  return `"${trimmed.length > 200 ? `${trimmed.slice(0, 197)}…` : trimmed}"`;
}

type Read = { readonly ok: true; readonly bytes: Buffer } | { readonly ok: false; readonly error: string };

/** Reads at most maxBytes + 1, so a huge file is refused without loading it. */
async function readCapped(path: string, maxBytes: number): Promise<Read> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, error: 'no such file' };
    if (code === 'EISDIR') return { ok: false, error: 'is a folder' };
    return { ok: false, error: errnoMessage(err) };
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) return { ok: false, error: 'is a folder' };
    if (!info.isFile()) return { ok: false, error: 'is not a regular file' };
    if (info.size > maxBytes) return { ok: false, error: `is larger than ${megabytes(maxBytes)} MB` };
    const buffer = Buffer.alloc(maxBytes + 1);
    let total = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, total, buffer.length - total, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes) return { ok: false, error: `is larger than ${megabytes(maxBytes)} MB` };
    }
    return { ok: true, bytes: buffer.subarray(0, total) };
  } catch (err) {
    return { ok: false, error: errnoMessage(err) };
  } finally {
    await handle.close();
  }
}
