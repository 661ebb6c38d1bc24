// The curator slot's side of a review: the prompt (each skill's description, usage and text) and
// the strict reading of its answer `{"proposals":[{skill, action, reason, into?, description?}]}`.
// A proposal naming a skill that is not installed, a merge without a skill to merge into, or a
// rewrite without the new description is malformed. Pure: the slot call is the caller's.
import * as z from 'zod/mini';

export const CURATOR_ACTIONS = ['keep', 'archive', 'merge', 'rewrite'] as const;
export type CuratorAction = (typeof CURATOR_ACTIONS)[number];

export type Proposal = {
  readonly skill: string;
  readonly action: CuratorAction;
  readonly reason: string;
  /** merge: the skill this one goes into. */
  readonly into?: string;
  /** rewrite: the new description. */
  readonly description?: string;
};

export type SkillForReview = {
  readonly name: string;
  readonly description: string;
  readonly text: string;
  /** Loads in the window. */
  readonly loads: number;
  /** Epoch milliseconds of the last load in the window; null when none. */
  readonly lastLoadAt: number | null;
};

export type ProposalsParse = { readonly ok: true; readonly proposals: readonly Proposal[] } | { readonly ok: false; readonly error: string };

// z.object, not strictObject: keys the model adds are dropped (DECISIONS: ignored), the required
// ones and their types are checked.
const answerSchema = z.object({
  proposals: z.array(
    z.object({
      skill: z.string().check(z.minLength(1)),
      action: z.enum(CURATOR_ACTIONS),
      reason: z.string().check(z.minLength(1)),
      into: z.optional(z.string().check(z.minLength(1))),
      description: z.optional(z.string().check(z.minLength(1))),
    }),
  ),
});

export const CURATOR_SYSTEM =
  'You curate the skills of an AI agent: for each skill, propose to keep it, archive it (unused or ' +
  'obsolete), merge it into another skill, or rewrite its description (so the agent finds it when it ' +
  'should). Answer with one JSON object and nothing else (no prose, no code fence): ' +
  '{"proposals":[{"skill":"<name>","action":"keep|archive|merge|rewrite","reason":"<why>",' +
  '"into":"<skill, for merge>","description":"<new description, for rewrite>"}]}.';

/** Skill texts are cut: the slot needs what a skill does, not every line of a long one. */
const TEXT_CHARS = 4_000;

export function buildCuratorPrompt(skills: readonly SkillForReview[], days: number): string {
  const blocks = skills.map((skill) =>
    [
      `## ${skill.name}`,
      `description: ${skill.description}`,
      `loads in the last ${days} days: ${skill.loads}`,
      `last load: ${skill.lastLoadAt === null ? 'none in the window' : new Date(skill.lastLoadAt).toISOString()}`,
      'text:',
      skill.text.length > TEXT_CHARS ? `${skill.text.slice(0, TEXT_CHARS)}\n[… cut]` : skill.text,
    ].join('\n'),
  );
  return [`Review these ${skills.length} skills. Give one proposal per skill, with its reason.`, '', ...blocks].join('\n');
}

export function buildCuratorFix(error: string): string {
  return `That answer could not be used: ${error}. Answer again with only the JSON object {"proposals":[…]}, naming only the skills listed.`;
}

export function parseCuratorAnswer(text: string, known: ReadonlySet<string>): ProposalsParse {
  let value: unknown;
  try {
    value = JSON.parse(text.trim());
  } catch {
    return { ok: false, error: 'it is not JSON' };
  }
  const parsed = answerSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    return { ok: false, error: `it is not {"proposals":[…]}${at}: ${issue?.message ?? 'wrong shape'}` };
  }
  const proposals: Proposal[] = [];
  for (const [index, raw] of parsed.data.proposals.entries()) {
    const where = `proposal ${index + 1}`;
    if (!known.has(raw.skill)) return { ok: false, error: `${where} names an unknown skill ${JSON.stringify(raw.skill)}` };
    if (raw.action === 'merge') {
      if (raw.into === undefined) return { ok: false, error: `${where} merges ${raw.skill} without "into"` };
      if (!known.has(raw.into)) return { ok: false, error: `${where} merges into an unknown skill ${JSON.stringify(raw.into)}` };
      if (raw.into === raw.skill) return { ok: false, error: `${where} merges ${raw.skill} into itself` };
    }
    if (raw.action === 'rewrite' && raw.description === undefined) return { ok: false, error: `${where} rewrites ${raw.skill} without "description"` };
    proposals.push({
      skill: raw.skill,
      action: raw.action,
      reason: raw.reason,
      ...(raw.action === 'merge' ? { into: raw.into } : {}),
      ...(raw.action === 'rewrite' ? { description: raw.description } : {}),
    });
  }
  const skills = proposals.map((p) => p.skill);
  const twice = skills.find((skill, index) => skills.indexOf(skill) !== index);
  if (twice !== undefined) return { ok: false, error: `two proposals for ${twice}` };
  return { ok: true, proposals };
}
