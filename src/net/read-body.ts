// Reading a response body for the guarded fetch: decoded (gzip, deflate, br), and stopped one
// byte past the cap, with the socket dropped, instead of buffering whatever the server sends.
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

export type BodyRead =
  | { readonly ok: true; readonly body: Buffer }
  | { readonly ok: false; readonly failure: { readonly code: 'too_large' } | { readonly code: 'encoding'; readonly encoding: string } };

/** Drops a body we will not read; undici reports that as an abort, which nobody needs to hear. */
export function discard(stream: Readable): void {
  stream.on('error', () => undefined);
  stream.destroy();
}

/** `length`: the Content-Length header, which refuses a declared oversize body before reading it. */
export async function readCapped(body: Readable, encoding: string | undefined, length: string | undefined, maxBytes: number): Promise<BodyRead> {
  const tooLarge = { ok: false, failure: { code: 'too_large' } } as const;
  if (length !== undefined && Number(length) > maxBytes && !encoding) {
    discard(body);
    return tooLarge;
  }
  const decoder = decoderFor(encoding);
  if (decoder === null) {
    discard(body);
    return { ok: false, failure: { code: 'encoding', encoding: encoding ?? '' } };
  }
  const stream: Readable = decoder ? body.pipe(decoder) : body;
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) return tooLarge;
      chunks.push(chunk);
    }
  } finally {
    // Leaving the loop early (the cap) must not keep downloading.
    discard(body);
    if (decoder) discard(decoder);
  }
  return { ok: true, body: Buffer.concat(chunks) };
}

/** undefined: no decoding; null: an encoding we do not read. */
function decoderFor(encoding: string | undefined): Transform | undefined | null {
  const name = encoding?.trim().toLowerCase();
  if (!name || name === 'identity') return undefined;
  if (name === 'gzip' || name === 'x-gzip') return createGunzip();
  if (name === 'deflate') return createInflate();
  if (name === 'br') return createBrotliDecompress();
  return null;
}
