// A curator review: the installed skills with their usage over the window, given to the `curator`
// slot, whose answer is parsed strictly; one malformed answer earns one request to fix it, and a
// second is a refusal (nothing is proposed, so nothing can move).
import { askStrict, type AskSlot, type SlotText } from '../routing/strict-answer.js';
import { listSkills } from '../agent/tools/skills/skills.js';
import type { SkillLoads } from '../store/types.js';
import { buildCuratorFix, buildCuratorPrompt, CURATOR_SYSTEM, parseCuratorAnswer, type Proposal, type SkillForReview } from './proposals.js';

export type SlotAnswer = SlotText;

/** One call to the `curator` slot. */
export type AskCurator = AskSlot;

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
  const answer = await askStrict({
    ask: (messages) => input.ask(CURATOR_SYSTEM, messages, ANSWER_MAX_TOKENS),
    prompt: buildCuratorPrompt(skills, input.days),
    parse: (text) => {
      const parsed = parseCuratorAnswer(text, known);
      return parsed.ok ? { ok: true, value: parsed.proposals } : parsed;
    },
    fix: buildCuratorFix,
  });
  if (answer.ok) return { ok: true, skills, proposals: answer.value, invalid };
  return answer.kind === 'slot_failed'
    ? { ok: false, code: 'slot_failed', error: `the curator slot failed: ${answer.error}` }
    : { ok: false, code: 'malformed', error: `the curator slot's answer was malformed twice (${answer.error}); nothing was changed` };
}
