// What web_extract does with a response body, decided from its Content-Type header alone.

export type ContentKind =
  /** `declared`: whether the header named the charset (else an HTML page may name it itself). */
  | { readonly kind: 'html'; readonly charset: string; readonly declared: boolean }
  /** Plain text and JSON go to the model as they are. */
  | { readonly kind: 'text'; readonly charset: string }
  | { readonly kind: 'other'; readonly mediaType: string };

const TEXT_TYPES = new Set(['text/plain', 'text/markdown', 'text/x-markdown', 'text/csv', 'application/json', 'application/ld+json']);

export function classifyContentType(header: string | undefined): ContentKind {
  // No header at all: servers that omit it mostly serve HTML.
  if (header === undefined || header.trim() === '') return { kind: 'html', charset: 'utf-8', declared: false };
  const [type = '', ...params] = header.split(';');
  const mediaType = type.trim().toLowerCase();
  const charsetParam = params.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith('charset='));
  const charset = charsetParam ? charsetParam.slice('charset='.length).replace(/^"|"$/g, '').trim().toLowerCase() || 'utf-8' : 'utf-8';
  if (mediaType === 'text/html' || mediaType === 'application/xhtml+xml') return { kind: 'html', charset, declared: charsetParam !== undefined };
  if (TEXT_TYPES.has(mediaType) || mediaType.endsWith('+json')) return { kind: 'text', charset };
  return { kind: 'other', mediaType: mediaType || header.trim() };
}

/**
 * The charset an HTML page declares in its first 1,024 bytes (`<meta charset>` or the http-equiv
 * form), for servers whose Content-Type names none.
 */
export function sniffHtmlCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  const match = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head);
  return match?.[1]?.toLowerCase();
}

/** Bytes to text in the page's charset; an unknown label falls back to UTF-8 rather than failing the page. */
export function decodeText(bytes: Uint8Array, charset: string): string {
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}
