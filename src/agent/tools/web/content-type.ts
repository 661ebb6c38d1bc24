// What web_extract does with a response body, decided from its Content-Type header alone.

export type ContentKind =
  | { readonly kind: 'html'; readonly charset: string }
  /** Plain text and JSON go to the model as they are. */
  | { readonly kind: 'text'; readonly charset: string }
  | { readonly kind: 'other'; readonly mediaType: string };

const TEXT_TYPES = new Set(['text/plain', 'text/markdown', 'text/x-markdown', 'text/csv', 'application/json', 'application/ld+json']);

export function classifyContentType(header: string | undefined): ContentKind {
  // No header at all: servers that omit it mostly serve HTML.
  if (header === undefined || header.trim() === '') return { kind: 'html', charset: 'utf-8' };
  const [type = '', ...params] = header.split(';');
  const mediaType = type.trim().toLowerCase();
  const charsetParam = params.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith('charset='));
  const charset = charsetParam ? charsetParam.slice('charset='.length).replace(/^"|"$/g, '').trim().toLowerCase() || 'utf-8' : 'utf-8';
  if (mediaType === 'text/html' || mediaType === 'application/xhtml+xml') return { kind: 'html', charset };
  if (TEXT_TYPES.has(mediaType) || mediaType.endsWith('+json')) return { kind: 'text', charset };
  return { kind: 'other', mediaType: mediaType || header.trim() };
}

/** Bytes to text in the page's charset; an unknown label falls back to UTF-8 rather than failing the page. */
export function decodeText(bytes: Uint8Array, charset: string): string {
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}
