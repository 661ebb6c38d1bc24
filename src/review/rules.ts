// `.iris/review.yaml`, the review rules a repository keeps next to its code (DECISIONS § "PR review
// findings"). Read from the PR's base branch by gather.ts; parsed here, purely. A file that cannot
// be read as rules (bad YAML, a wrong type, an unknown key, a bad glob) is not half-applied: the
// review goes on with the defaults, and `problem` says what is wrong so the summary can name it.
import { parse } from 'yaml';
import * as z from 'zod/mini';
import { compilePathGlob } from './glob.js';

export const REVIEW_RULES_PATH = '.iris/review.yaml';

/** Most to least severe; `severity_threshold` keeps its level and every one above it. */
export const REVIEW_SEVERITIES = ['critical', 'major', 'minor', 'nit'] as const;
export type ReviewSeverity = (typeof REVIEW_SEVERITIES)[number];

export const DEFAULT_MAX_FINDINGS = 10;
export const DEFAULT_MAX_DIFF_TOKENS = 24_000;
export const MAX_FINDINGS_LIMIT = 100;
/** Bounds of `max_diff_tokens` (and of the route's `review.max_diff_tokens`). */
export const DIFF_TOKENS_RANGE = { min: 1_000, max: 1_000_000 } as const;

export type ReviewRules = {
  readonly ignore: readonly string[];
  readonly instructions: string;
  readonly pathInstructions: ReadonlyArray<{ readonly path: string; readonly instructions: string }>;
  readonly skip: { readonly drafts: boolean; readonly bots: boolean; readonly titleKeywords: readonly string[] };
  readonly maxFindings: number;
  readonly severityThreshold: ReviewSeverity;
  readonly maxDiffTokens: number;
};

const fileSchema = z.strictObject({
  ignore: z.optional(z.array(z.string())),
  instructions: z.optional(z.string()),
  path_instructions: z.optional(z.array(z.strictObject({ path: z.string(), instructions: z.string() }))),
  skip: z.optional(z.strictObject({ drafts: z.optional(z.boolean()), bots: z.optional(z.boolean()), title_keywords: z.optional(z.array(z.string())) })),
  max_findings: z.optional(z.int().check(z.gte(0), z.lte(MAX_FINDINGS_LIMIT))),
  severity_threshold: z.optional(z.enum(REVIEW_SEVERITIES)),
  max_diff_tokens: z.optional(z.int().check(z.gte(DIFF_TOKENS_RANGE.min), z.lte(DIFF_TOKENS_RANGE.max))),
});

/** The rules when the repository has no file; `maxDiffTokens` from the route when it sets one. */
export function defaultReviewRules(maxDiffTokens: number = DEFAULT_MAX_DIFF_TOKENS): ReviewRules {
  return {
    ignore: [],
    instructions: '',
    pathInstructions: [],
    skip: { drafts: true, bots: true, titleKeywords: [] },
    maxFindings: DEFAULT_MAX_FINDINGS,
    severityThreshold: 'nit',
    maxDiffTokens,
  };
}

/**
 * `problem`: the file could not be used (the defaults were); `note`: it was used, but a value was
 * held to what the operator allows. Both go into the summary.
 */
export type ParsedReviewRules = { readonly rules: ReviewRules; readonly problem?: string; readonly note?: string };

/**
 * The rules of a `.iris/review.yaml` text (undefined: the repository has none). `defaultMaxDiffTokens`
 * is the route's `review.max_diff_tokens` (else 24,000). The file's own `max_diff_tokens` may lower
 * it, never raise it: the operator pays for the prompt, and a repository's maintainers are not the
 * operator.
 */
export function parseReviewRules(text: string | undefined, defaultMaxDiffTokens: number = DEFAULT_MAX_DIFF_TOKENS): ParsedReviewRules {
  const defaults = defaultReviewRules(defaultMaxDiffTokens);
  if (text === undefined) return { rules: defaults };
  const broken = (what: string): ParsedReviewRules => ({ rules: defaults, problem: `${REVIEW_RULES_PATH} ${what}; the review used the default rules` });
  let value: unknown;
  try {
    value = parse(text, { uniqueKeys: true, maxAliasCount: 50 });
  } catch (err) {
    const line = (err as { linePos?: Array<{ line: number }> }).linePos?.[0]?.line;
    // yaml's message, without the quoted excerpt it appends after " at line …".
    const said = (err instanceof Error ? err.message : '').split(/ at line \d+/)[0]?.trim().slice(0, 200) ?? '';
    return broken(`is not valid YAML${line === undefined ? '' : ` at line ${line}`}${said === '' ? '' : ` (${said})`}`);
  }
  // An empty file (or one of comments only) sets nothing.
  if (value === null || value === undefined) return { rules: defaults };
  const parsed = fileSchema.safeParse(value);
  if (!parsed.success) return broken(`is not valid: ${parsed.error.issues.map(describeIssue).join('; ')}`);
  const file = parsed.data;
  const badGlobs = [...(file.ignore ?? []), ...(file.path_instructions ?? []).map((entry) => entry.path)]
    .map((glob) => compilePathGlob(glob))
    .flatMap((glob) => (glob.ok ? [] : [glob.error]));
  if (badGlobs.length > 0) return broken(`is not valid: ${badGlobs.join('; ')}`);
  const asked = file.max_diff_tokens;
  const held = asked !== undefined && asked > defaults.maxDiffTokens;
  return {
    ...(held ? { note: `${REVIEW_RULES_PATH} asks for max_diff_tokens ${asked}; this route allows at most ${defaults.maxDiffTokens}, which was used.` } : {}),
    rules: {
      ignore: file.ignore ?? defaults.ignore,
      instructions: file.instructions?.trim() ?? defaults.instructions,
      pathInstructions: (file.path_instructions ?? []).map((entry) => ({ path: entry.path, instructions: entry.instructions.trim() })),
      skip: {
        drafts: file.skip?.drafts ?? defaults.skip.drafts,
        bots: file.skip?.bots ?? defaults.skip.bots,
        titleKeywords: (file.skip?.title_keywords ?? []).map((keyword) => keyword.trim()).filter((keyword) => keyword !== ''),
      },
      maxFindings: file.max_findings ?? defaults.maxFindings,
      severityThreshold: file.severity_threshold ?? defaults.severityThreshold,
      maxDiffTokens: asked === undefined || held ? defaults.maxDiffTokens : asked,
    },
  };
}

type Issue = z.core.$ZodIssue;

/** zod/mini has no message catalogue: each issue in words a repository's maintainer can act on. */
function describeIssue(issue: Issue): string {
  const where = issue.path.length > 0 ? issue.path.map(String).join('.') : 'the file';
  switch (issue.code) {
    case 'invalid_type':
      if (issue.path.length === 0) return 'the file must be a mapping of keys';
      return `${where} must be ${issue.expected === 'int' ? 'an integer' : issue.expected === 'array' ? 'a list' : issue.expected === 'object' ? 'a mapping' : `a ${issue.expected}`}`;
    case 'unrecognized_keys':
      return `unknown key${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((key) => (issue.path.length > 0 ? `${where}.${key}` : key)).join(', ')}`;
    case 'too_small':
      return `${where} must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return `${where} must be at most ${String(issue.maximum)}`;
    case 'invalid_value':
      return `${where} must be one of ${issue.values.map(String).join(', ')}`;
    default:
      return `${where} is not valid`;
  }
}
