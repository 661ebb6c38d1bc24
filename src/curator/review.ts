// A curator review: the installed skills with their usage over the window, given to the `curator`
// slot, whose answer is parsed strictly; one malformed answer earns one request to fix it, and a
// second is a refusal (nothing is proposed, so nothing can move).
import type { Message } from '../domain/messages.js';
import { listSkills } from '../agent/tools/skills/skills.js';
import type { SkillLoads } from '../store/types.js';
import { buildCuratorFix, buildCuratorPrompt, CURATOR_SYSTEM, parseCuratorAnswer, type Proposal, type SkillForReview } from './proposals.js';

export type SlotAnswer = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: string };

/** One call to the `curator` slot. */
export type AskCurator = (system: string, messages: readonly Message[], maxOutputTokens: number) => Promise<SlotAnswer>;

export type ReviewInput = {
  readonly skillsDir: string;
  readonly skillLoads: Pick<SkillLoads, 'usageSince'>;
  readonly ask: AskCurator;
  readonly days: number;
  /** Epoch milliseconds. */
  readonly now: number;
};

export type ReviewResult =
  | {
      readonly ok: true;
      readonly skills: readonly SkillForReview[];
      readonly proposals: readonly Proposal[];
      /** Skill folders that could not be read, with why: not given to the slot. */
      readonly invalid: readonly { readonly folder: string; readonly error: string }[];
    }
  | { readonly ok: false; readonly code: 'slot_failed' | 'malformed'; readonly error: string };

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Room for a proposal per skill with a rewritten description. */
const ANSWER_MAX_TOKENS = 4_000;

export async function reviewSkills(input: ReviewInput): Promise<ReviewResult> {
  const entries = (await listSkills(input.skillsDir)) ?? [];
  const usage = new Map((await input.skillLoads.usageSince(input.now - input.days * DAY_MS)).map((row) => [row.skill, row]));
  const skills: SkillForReview[] = entries.flatMap((entry) =>
    entry.ok
      ? [{
          name: entry.folder,
          description: entry.skill.description,
          text: entry.skill.body,
          loads: usage.get(entry.folder)?.loads ?? 0,
          lastLoadAt: usage.get(entry.folder)?.lastLoadAt ?? null,
        }]
      : [],
  );
  const invalid = entries.flatMap((entry) => (entry.ok ? [] : [{ folder: entry.folder, error: entry.error }]));
  if (skills.length === 0) return { ok: true, skills, proposals: [], invalid };

  const known = new Set(skills.map((skill) => skill.name));
  const messages: Message[] = [{ role: 'user', content: buildCuratorPrompt(skills, input.days) }];
  let lastError = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    const answer = await input.ask(CURATOR_SYSTEM, messages, ANSWER_MAX_TOKENS);
    if (!answer.ok) return { ok: false, code: 'slot_failed', error: `the curator slot failed: ${answer.error}` };
    const parsed = parseCuratorAnswer(answer.text, known);
    if (parsed.ok) return { ok: true, skills, proposals: parsed.proposals, invalid };
    lastError = parsed.error;
    messages.push({ role: 'assistant', content: answer.text }, { role: 'user', content: buildCuratorFix(parsed.error) });
  }
  return { ok: false, code: 'malformed', error: `the curator slot's answer was malformed twice (${lastError}); nothing was changed` };
}
