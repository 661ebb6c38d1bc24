// A skills hub's index: a JSON file `{"skills":[{"name","description","url","tags"?}]}`. The
// shape is checked at the door; an entry that does not fit is skipped and named, so one typo in a
// shared index costs one skill, not the whole hub.
import * as z from 'zod/mini';
import { checkName } from '../security/names.js';

export type HubEntry = {
  readonly name: string;
  readonly description: string;
  /** The raw SKILL.md: an http(s) URL, or a path (relative ones are relative to the index). */
  readonly url: string;
  readonly tags: readonly string[];
  /** The hub this entry came from, as `skills.hubs` spells it. */
  readonly hub: string;
};

export type HubIndexParse =
  | { readonly ok: true; readonly entries: readonly HubEntry[]; readonly skipped: readonly string[] }
  | { readonly ok: false; readonly error: string };

const nonEmpty = () => z.string().check(z.minLength(1));
const indexSchema = z.looseObject({ skills: z.array(z.unknown()) });
const entrySchema = z.looseObject({
  name: nonEmpty(),
  description: nonEmpty(),
  url: nonEmpty(),
  tags: z.optional(z.array(z.string())),
});

const issueText = (error: z.core.$ZodError) =>
  error.issues.map((issue) => `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`).join('; ');

export function parseHubIndex(hub: string, text: string): HubIndexParse {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, error: 'the index is not JSON' };
  }
  const index = indexSchema.safeParse(raw);
  if (!index.success) return { ok: false, error: 'the index is not {"skills":[…]}' };
  const entries: HubEntry[] = [];
  const skipped: string[] = [];
  index.data.skills.forEach((item, i) => {
    const entry = entrySchema.safeParse(item);
    if (!entry.success) return void skipped.push(`skills[${i}]: ${issueText(entry.error)}`);
    const checked = checkName('skill', entry.data.name);
    if (!checked.ok) return void skipped.push(`skills[${i}]: ${checked.error}`);
    const { name, description, url, tags } = entry.data;
    entries.push({ name, description: description.trim().replace(/\s+/g, ' '), url, tags: tags ?? [], hub });
  });
  return { ok: true, entries, skipped };
}
