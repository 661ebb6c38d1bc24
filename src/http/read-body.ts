// Reads a request body with a size cap and a deadline (DECISIONS.md step 3): a declared length
// over the cap is refused before a byte is read, a body that grows past it is refused the moment
// it does, and one that is not complete in time gets a 408. The caller answers with
// `Connection: close`, so the rest of a refused body is never read.
import type { IncomingMessage } from 'node:http';

export type BodyResult =
  | { readonly ok: true; readonly body: Buffer }
  | { readonly ok: false; readonly status: 400 | 408 | 413; readonly error: string; readonly clientGone?: boolean };

export const TOO_LARGE = 'Payload too large';

export function declaredTooLarge(req: IncomingMessage, maxBytes: number): boolean {
  const declared = req.headers['content-length'];
  return declared !== undefined && /^\d+$/.test(declared) && Number(declared) > maxBytes;
}

export function readBody(req: IncomingMessage, maxBytes: number, timeoutMs: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: BodyResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('aborted', onAborted);
      req.off('error', onAborted);
      if (!result.ok) req.pause(); // stop pulling bytes we will not use
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) finish({ ok: false, status: 413, error: TOO_LARGE });
      else chunks.push(chunk);
    };
    const onEnd = () => finish({ ok: true, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) });
    const onAborted = () => finish({ ok: false, status: 400, error: 'Request body incomplete', clientGone: true });
    const timer = setTimeout(() => finish({ ok: false, status: 408, error: 'Request body not received in time' }), timeoutMs);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('aborted', onAborted);
    req.on('error', onAborted);
  });
}
