// The review answer the model gives (DECISIONS § "PR review findings"): a JSON object with a
// summary and findings, each on a line of the new side. Read strictly where it matters (every
// required key, with its type) and leniently where it does not (extra keys, a ```json fence,
// prose around the object). Pure.

import { REVIEW_SEVERITIES as SEVERITIES, type ReviewSeverity as Severity } from './rules.js';

export { SEVERITIES, type Severity };

export type Finding = {
  readonly path: string;
  /** A line number on the new side. */
  readonly line: number;
  /** The first line of a range ending at `line`. */
  readonly startLine?: number;
  readonly severity: Severity;
  readonly title: string;
  readonly body: string;
  /** The replacement text for `line` (or `startLine`..`line`). */
  readonly suggestion?: string;
};

export type ReviewAnswer = { readonly summary: string; readonly findings: readonly Finding[] };

export type ParsedAnswer = { readonly ok: true; readonly answer: ReviewAnswer } | { readonly ok: false; readonly problem: string };

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The JSON object in the model's text: the whole text, a fenced block, or the outermost braces. */
function jsonIn(text: string): unknown {
  const candidates = [text.trim()];
  const fenced = /```(?:json)?\s*\n([\s\S]*?)\n```/i.exec(text);
  if (fenced) candidates.push(fenced[1]!.trim());
  const first = text.indexOf('{');
  const last = text.lastIndexOf('}');
  if (first >= 0 && last > first) candidates.push(text.slice(first, last + 1));
  for (const candidate of candidates) {
    try {
      return JSON.parse(candidate) as unknown;
    } catch {
      // the next way of finding it
    }
  }
  return undefined;
}

function readFinding(value: unknown, at: string): Finding | string {
  if (!isObject(value)) return `${at} is not an object`;
  const missing = ['path', 'line', 'severity', 'title', 'body'].filter((key) => value[key] === undefined);
  if (missing.length > 0) return `${at} has no ${missing.map((key) => `"${key}"`).join(', ')}`;
  const { path, line, severity, title, body, suggestion, start_line: startLine } = value;
  if (typeof path !== 'string' || path.trim() === '') return `${at}.path must be a non-empty string`;
  if (typeof line !== 'number' || !Number.isSafeInteger(line) || line < 1) return `${at}.line must be a positive integer (a line number on the new side)`;
  if (typeof severity !== 'string' || !(SEVERITIES as readonly string[]).includes(severity)) return `${at}.severity must be one of ${SEVERITIES.join(', ')}`;
  if (typeof title !== 'string' || title.trim() === '') return `${at}.title must be a non-empty string`;
  if (typeof body !== 'string') return `${at}.body must be a string`;
  if (suggestion !== undefined && suggestion !== null && typeof suggestion !== 'string') return `${at}.suggestion must be a string when given`;
  if (startLine !== undefined && startLine !== null && (typeof startLine !== 'number' || !Number.isSafeInteger(startLine) || startLine < 1 || startLine > line)) {
    return `${at}.start_line must be a positive integer no greater than line`;
  }
  return {
    path: path.trim().replace(/^\.?\//, ''),
    line,
    ...(typeof startLine === 'number' && startLine < line ? { startLine } : {}),
    severity: severity as Severity,
    title: title.trim(),
    body,
    ...(typeof suggestion === 'string' ? { suggestion } : {}),
  };
}

export function parseReviewAnswer(text: string): ParsedAnswer {
  const json = jsonIn(text);
  if (!isObject(json)) return { ok: false, problem: 'the answer holds no JSON object' };
  if (typeof json.summary !== 'string') return { ok: false, problem: json.summary === undefined ? 'the object has no "summary"' : '"summary" must be a string' };
  if (!Array.isArray(json.findings)) return { ok: false, problem: json.findings === undefined ? 'the object has no "findings"' : '"findings" must be an array' };
  const findings: Finding[] = [];
  for (const [index, value] of json.findings.entries()) {
    const finding = readFinding(value, `findings[${index}]`);
    if (typeof finding === 'string') return { ok: false, problem: finding };
    findings.push(finding);
  }
  return { ok: true, answer: { summary: json.summary, findings } };
}

/** What the model is told when its answer could not be read (one retry, in the PR's session). */
export function retryPrompt(problem: string): string {
  return [
    `Your review could not be read as findings: ${problem}.`,
    'Answer again with only the JSON object: {"summary": "<markdown>", "findings": [{"path", "line", "severity": "critical|major|minor|nit", "title", "body", "suggestion"?, "start_line"?}]}',
    '(`line` is a line number on the new side that is in the diff; `suggestion` is the replacement text for that line).',
  ].join('\n');
}

const rank = (severity: Severity) => SEVERITIES.indexOf(severity);

/**
 * The findings the repository's rules keep: at or above `threshold` (`nit` keeps all), the most
 * severe first (the model's order among equals), at most `max`.
 */
export function keptFindings(findings: readonly Finding[], rules: { readonly severityThreshold: Severity; readonly maxFindings: number }): { readonly kept: Finding[]; readonly dropped: number } {
  const eligible = findings.filter((finding) => rank(finding.severity) <= rank(rules.severityThreshold));
  const sorted = eligible.map((finding, index) => ({ finding, index })).sort((a, b) => rank(a.finding.severity) - rank(b.finding.severity) || a.index - b.index);
  const kept = sorted.slice(0, Math.max(0, rules.maxFindings)).map((entry) => entry.finding);
  return { kept, dropped: findings.length - kept.length };
}
