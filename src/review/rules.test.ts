import { describe, expect, it } from 'vitest';
import { defaultReviewRules, parseReviewRules } from './rules.js';

const DEFAULTS = {
  ignore: [],
  instructions: '',
  pathInstructions: [],
  skip: { drafts: true, bots: true, titleKeywords: [] },
  maxFindings: 10,
  severityThreshold: 'nit',
  maxDiffTokens: 24_000,
};

const FULL = `# the review rules
ignore:
  - "*.lock"
  - dist/**
instructions: |
  We care about error handling.
path_instructions:
  - path: src/db/**
    instructions: Every query must be parameterised.
  - path: "*.sql"
    instructions: "  Migrations must be reversible.  "
skip:
  drafts: false
  bots: false
  title_keywords: [WIP, " ", "do not review"]
max_findings: 5
severity_threshold: major
max_diff_tokens: 8000
`;

describe('parseReviewRules', () => {
  it('gives the defaults when the repository has no file, or an empty one', () => {
    expect(parseReviewRules(undefined)).toEqual({ rules: DEFAULTS });
    expect(parseReviewRules('')).toEqual({ rules: DEFAULTS });
    expect(parseReviewRules('# nothing yet\n')).toEqual({ rules: DEFAULTS });
    expect(defaultReviewRules()).toEqual(DEFAULTS);
  });

  it('reads every key', () => {
    expect(parseReviewRules(FULL)).toEqual({
      rules: {
        ignore: ['*.lock', 'dist/**'],
        instructions: 'We care about error handling.',
        pathInstructions: [
          { path: 'src/db/**', instructions: 'Every query must be parameterised.' },
          { path: '*.sql', instructions: 'Migrations must be reversible.' },
        ],
        skip: { drafts: false, bots: false, titleKeywords: ['WIP', 'do not review'] },
        maxFindings: 5,
        severityThreshold: 'major',
        maxDiffTokens: 8000,
      },
    });
  });

  it('keeps the defaults of the keys a file leaves out, skip key by skip key', () => {
    expect(parseReviewRules('skip:\n  drafts: false\n')).toEqual({ rules: { ...DEFAULTS, skip: { drafts: false, bots: true, titleKeywords: [] } } });
    expect(parseReviewRules('max_findings: 0\n').rules.maxFindings).toBe(0);
  });

  it("takes the route's max_diff_tokens as the default, which the file may lower", () => {
    expect(parseReviewRules(undefined, 50_000).rules.maxDiffTokens).toBe(50_000);
    expect(parseReviewRules('ignore: []\n', 50_000).rules.maxDiffTokens).toBe(50_000);
    expect(parseReviewRules('max_diff_tokens: 2000\n', 50_000)).toEqual({ rules: { ...DEFAULTS, maxDiffTokens: 2000 } });
    expect(parseReviewRules('max_diff_tokens: 50000\n', 50_000)).toEqual({ rules: { ...DEFAULTS, maxDiffTokens: 50_000 } });
  });

  it("never lets the file raise it over the route's (the operator pays for the prompt): the route's is used, and the summary says so", () => {
    expect(parseReviewRules('max_diff_tokens: 1000000\nmax_findings: 3\n')).toEqual({
      rules: { ...DEFAULTS, maxFindings: 3 },
      note: '.iris/review.yaml asks for max_diff_tokens 1000000; this route allows at most 24000, which was used.',
    });
    expect(parseReviewRules('max_diff_tokens: 60000\n', 50_000)).toEqual({
      rules: { ...DEFAULTS, maxDiffTokens: 50_000 },
      note: '.iris/review.yaml asks for max_diff_tokens 60000; this route allows at most 50000, which was used.',
    });
  });

  it('uses the defaults and names the problem for YAML that does not parse', () => {
    expect(parseReviewRules('ignore: [a, b\nmax_findings: 3\n')).toEqual({
      rules: DEFAULTS,
      problem: '.iris/review.yaml is not valid YAML at line 2 (Flow sequence in block collection must be sufficiently indented and end with a ]); the review used the default rules',
    });
    expect(parseReviewRules('max_findings: 1\nmax_findings: 2\n').problem).toBe('.iris/review.yaml is not valid YAML at line 2 (Map keys must be unique); the review used the default rules');
  });

  it('lists unknown keys, at the top and inside skip and path_instructions', () => {
    expect(parseReviewRules('ignore: []\nmax_finding: 3\nseverity: major\n')).toEqual({
      rules: DEFAULTS,
      problem: '.iris/review.yaml is not valid: unknown keys max_finding, severity; the review used the default rules',
    });
    expect(parseReviewRules('skip:\n  draft: false\n').problem).toBe('.iris/review.yaml is not valid: unknown key skip.draft; the review used the default rules');
    expect(parseReviewRules('path_instructions:\n  - path: a\n    instructions: b\n    glob: c\n').problem).toBe(
      '.iris/review.yaml is not valid: unknown key path_instructions.0.glob; the review used the default rules',
    );
  });

  it('names each value of the wrong type or out of range, and uses the defaults for all', () => {
    const parsed = parseReviewRules('ignore: "*.lock"\ninstructions: 3\nskip:\n  drafts: "no"\nmax_findings: 1000\nseverity_threshold: blocker\nmax_diff_tokens: 10\n');
    expect(parsed).toEqual({
      rules: DEFAULTS,
      problem:
        '.iris/review.yaml is not valid: ignore must be a list; instructions must be a string; skip.drafts must be a boolean; max_findings must be at most 100; severity_threshold must be one of critical, major, minor, nit; max_diff_tokens must be at least 1000; the review used the default rules',
    });
    expect(parseReviewRules('max_findings: 2.5\n').problem).toBe('.iris/review.yaml is not valid: max_findings must be an integer; the review used the default rules');
    expect(parseReviewRules('path_instructions:\n  - path: src/**\n').problem).toBe('.iris/review.yaml is not valid: path_instructions.0.instructions must be a string; the review used the default rules');
  });

  it('refuses a file that is not a mapping', () => {
    expect(parseReviewRules('- ignore\n- dist\n')).toEqual({ rules: DEFAULTS, problem: '.iris/review.yaml is not valid: the file must be a mapping of keys; the review used the default rules' });
    expect(parseReviewRules('just text\n').problem).toBe('.iris/review.yaml is not valid: the file must be a mapping of keys; the review used the default rules');
  });

  it('refuses a broken glob in ignore or path_instructions', () => {
    expect(parseReviewRules('ignore: ["src/[ab"]\npath_instructions:\n  - path: ""\n    instructions: x\n')).toEqual({
      rules: DEFAULTS,
      problem: '.iris/review.yaml is not valid: glob "src/[ab" is not valid; glob "" is empty; the review used the default rules',
    });
  });
});
