// `data:` URLs (RFC 2397) as a model writes them for an image: `data:<type>[;params][;base64],<data>`.
// Only the bytes are kept; their type is decided later by sniffing, like any other source.

export type DataUrl = { readonly declaredType: string; readonly bytes: Buffer };

export type DataUrlResult = { readonly ok: true; readonly value: DataUrl } | { readonly ok: false; readonly error: string };

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function isDataUrl(text: string): boolean {
  return /^data:/i.test(text.trimStart());
}

export function parseDataUrl(text: string, maxBytes: number): DataUrlResult {
  const trimmed = text.trim();
  if (!isDataUrl(trimmed)) return { ok: false, error: 'not a data: URL' };
  const comma = trimmed.indexOf(',');
  if (comma < 0) return { ok: false, error: 'the data: URL has no "," before its data' };
  const params = trimmed.slice('data:'.length, comma).split(';').map((p) => p.trim());
  const declaredType = (params[0] ?? '').toLowerCase() || 'text/plain';
  const payload = trimmed.slice(comma + 1);
  const isBase64 = params.slice(1).some((p) => p.toLowerCase() === 'base64');
  // Checked on the text first, so a huge URL is refused before it is decoded into memory.
  const estimated = isBase64 ? Math.floor((payload.length * 3) / 4) : payload.length;
  if (estimated > maxBytes + 3) return { ok: false, error: `the data: URL holds more than ${maxBytes} bytes` };
  let bytes: Buffer;
  if (isBase64) {
    // Line breaks and spaces are common in pasted base64; anything else is not base64.
    const compact = payload.replace(/\s+/g, '');
    if (!BASE64.test(compact) || compact.length % 4 === 1) return { ok: false, error: 'the data: URL is not valid base64' };
    bytes = Buffer.from(compact, 'base64');
  } else {
    const decoded = percentDecode(payload);
    if (!decoded) return { ok: false, error: 'the data: URL has a bad %-escape' };
    bytes = decoded;
  }
  if (bytes.length > maxBytes) return { ok: false, error: `the data: URL holds more than ${maxBytes} bytes` };
  return { ok: true, value: { declaredType, bytes } };
}

/** Byte by byte: decodeURIComponent would insist the escapes spell UTF-8, and image bytes do not. */
function percentDecode(text: string): Buffer | undefined {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char !== 0x25) {
      out.push(...Buffer.from(text[i] as string, 'utf8'));
      continue;
    }
    const hex = text.slice(i + 1, i + 3);
    if (!/^[0-9a-fA-F]{2}$/.test(hex)) return undefined;
    out.push(parseInt(hex, 16));
    i += 2;
  }
  return Buffer.from(out);
}
