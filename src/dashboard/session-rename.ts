// PATCH /api/sessions/:id's body: `{"title": "<new title>"}`, cleaned as `iris sessions rename`
// cleans it (runs of whitespace become one space, trimmed).
export const MAX_TITLE = 200;

export type ParsedRename = { readonly ok: true; readonly title: string } | { readonly ok: false; readonly error: string };

export function parseRename(body: unknown): ParsedRename {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, error: 'send a JSON object: {"title": "<new title>"}' };
  const extra = Object.keys(body).filter((key) => key !== 'title');
  if (extra.length > 0) return { ok: false, error: `unknown field "${extra[0]!.slice(0, 40)}" (only title)` };
  const title = (body as { title?: unknown }).title;
  if (typeof title !== 'string') return { ok: false, error: 'title must be a string' };
  const clean = title.replace(/\s+/g, ' ').trim();
  if (clean === '') return { ok: false, error: 'the new title is empty' };
  if (clean.length > MAX_TITLE) return { ok: false, error: `the title is longer than ${MAX_TITLE} characters` };
  return { ok: true, title: clean };
}
