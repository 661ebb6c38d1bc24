// The report's data, kept inside the report file itself as a trailing HTML comment (invisible when
// the Markdown is rendered), so the dashboard can show the last review's proposals and apply its
// archive proposals without reading the prose back. The comment's JSON has `<`, `>` and `-`
// escaped, so no text a model wrote can close the comment early.
import * as z from 'zod/mini';
import { CURATOR_ACTIONS, type Proposal } from './proposals.js';
import type { Report } from './report.js';

const MARK = 'iris-curator-report';
const COMMENT = new RegExp(`\\n<!-- ${MARK} (\\{.*\\}) -->\\n?$`);

export type ReportSkillUsage = { readonly name: string; readonly loads: number; readonly lastLoadAt: number | null };

/** What a report file holds for a program (the skills' texts stay out: they are on disk). */
export type ReportData = {
  readonly at: number;
  readonly days: number;
  readonly skills: readonly ReportSkillUsage[];
  readonly proposals: readonly Proposal[];
  readonly invalid: readonly { readonly folder: string; readonly error: string }[];
};

const dataSchema = z.object({
  at: z.int().check(z.nonnegative()),
  days: z.int().check(z.positive()),
  skills: z.array(z.object({ name: z.string(), loads: z.int().check(z.nonnegative()), last_load_at: z.nullable(z.int()) })),
  proposals: z.array(
    z.object({
      skill: z.string(),
      action: z.enum(CURATOR_ACTIONS),
      reason: z.string(),
      into: z.optional(z.string()),
      description: z.optional(z.string()),
    }),
  ),
  invalid: z.array(z.object({ folder: z.string(), error: z.string() })),
});

const escapeForComment = (json: string) => json.replace(/[<>-]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The comment line appended to a report's text. */
export function reportDataComment(report: Report): string {
  const data = {
    at: report.at,
    days: report.days,
    skills: report.skills.map((skill) => ({ name: skill.name, loads: skill.loads, last_load_at: skill.lastLoadAt })),
    proposals: report.proposals,
    invalid: report.invalid,
  };
  return `\n<!-- ${MARK} ${escapeForComment(JSON.stringify(data))} -->\n`;
}

/** The report's text without the data, and the data (undefined for a report written without it). */
export function splitReportFile(text: string): { readonly text: string; readonly data: ReportData | undefined } {
  const match = COMMENT.exec(text);
  if (!match) return { text, data: undefined };
  const body = text.slice(0, match.index);
  let value: unknown;
  try {
    value = JSON.parse(match[1]!);
  } catch {
    return { text: body, data: undefined };
  }
  const parsed = dataSchema.safeParse(value);
  if (!parsed.success) return { text: body, data: undefined };
  const { at, days, skills, proposals, invalid } = parsed.data;
  return {
    text: body,
    data: {
      at,
      days,
      skills: skills.map((skill) => ({ name: skill.name, loads: skill.loads, lastLoadAt: skill.last_load_at })),
      proposals: proposals.map((p) => ({ skill: p.skill, action: p.action, reason: p.reason, ...(p.into === undefined ? {} : { into: p.into }), ...(p.description === undefined ? {} : { description: p.description }) })),
      invalid,
    },
  };
}
