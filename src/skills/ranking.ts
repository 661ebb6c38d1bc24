// What the skills_hub slot is asked, and how its answer is read: `{"results":[{"name","reason"}]}`,
// best first, naming candidates only. Strict, because a name the slot made up would print a skill
// that no hub has.
import * as z from 'zod/mini';
import type { Parsed } from '../routing/strict-answer.js';
import type { HubEntry } from './hub-index.js';

export type Ranked = { readonly name: string; readonly reason: string };

export const SKILLS_HUB_SYSTEM =
  'You rank skills (instruction files for an AI agent) for a search. Answer with JSON only, no prose and ' +
  'no code fence: {"results":[{"name":"<skill name>","reason":"<one sentence: why it fits>"}]}, best first, ' +
  'leaving out skills that do not fit. Use only names from the list, exactly as written.';

/** One short reason per candidate. */
export const RANKING_MAX_TOKENS = 2000;
const DESCRIPTION_CHARS = 300;

export function buildRankingPrompt(query: string, candidates: readonly HubEntry[]): string {
  // A name in two hubs is shown once, as its first (best-scored) hub describes it.
  const firsts = new Map<string, HubEntry>();
  for (const candidate of candidates) if (!firsts.has(candidate.name)) firsts.set(candidate.name, candidate);
  const lines = [...firsts.values()].map((entry) => {
    const name = entry.name;
    const tags = entry.tags.length > 0 ? ` [tags: ${entry.tags.join(', ')}]` : '';
    return `- ${name}: ${entry.description.slice(0, DESCRIPTION_CHARS)}${tags}`;
  });
  return ['Search:', query, '', 'Skills:', ...lines].join('\n');
}

export function buildRankingFix(error: string): string {
  return `That answer could not be used: ${error}. Answer again with only {"results":[{"name","reason"}]}, using names from the list exactly as written.`;
}

// Keys the model adds are dropped (DECISIONS: ignored); the required ones and their types are checked.
const answerSchema = z.object({
  results: z.array(z.object({ name: z.string(), reason: z.string() })),
});

export function parseRanking(text: string, candidates: ReadonlySet<string>): Parsed<readonly Ranked[]> {
  let raw: unknown;
  try {
    raw = JSON.parse(text.trim());
  } catch {
    return { ok: false, error: 'it is not JSON' };
  }
  const answer = answerSchema.safeParse(raw);
  if (!answer.success) {
    const issue = answer.error.issues[0];
    const at = issue && issue.path.length > 0 ? ` (${issue.path.join('.')} is missing or of the wrong type)` : '';
    return { ok: false, error: `it is not {"results":[{"name","reason"}]}, both strings${at}` };
  }
  const results = answer.data.results;
  const unknown = results.filter((r) => !candidates.has(r.name)).map((r) => JSON.stringify(r.name));
  if (unknown.length > 0) return { ok: false, error: `${unknown.slice(0, 5).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not in the list` };
  const names = results.map((r) => r.name);
  const repeated = names.find((name, i) => names.indexOf(name) !== i);
  if (repeated !== undefined) return { ok: false, error: `"${repeated}" is listed twice` };
  const blank = results.find((r) => r.reason.trim() === '');
  if (blank) return { ok: false, error: `"${blank.name}" has an empty reason` };
  return { ok: true, value: results.map((r) => ({ name: r.name, reason: r.reason.trim().replace(/\s+/g, ' ') })) };
}
