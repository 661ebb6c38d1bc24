// What the profile_describer slot is asked, and how its answer is read. Pure.
// The answer must be one plain paragraph (not JSON); a blank answer is malformed.
import { maskSecrets } from '../config/secrets-policy.js';

export type ProfileFacts = {
  readonly name: string;
  /** The profile's config.yaml as data; secrets are masked here before anything is sent. */
  readonly config: unknown;
  readonly skills: ReadonlyArray<{ readonly name: string; readonly description: string }>;
  readonly sessionTitles: readonly string[];
};

export const DESCRIBE_SYSTEM =
  'You describe an Iris agent profile for its owner. Answer with one plain paragraph of two to four sentences: ' +
  'what the profile is set up for (its models, tools, skills and recent work). No heading, no list, no JSON, no quotes around it.';

export const DESCRIBE_FIX = 'Your answer was blank. Answer again with one non-empty plain paragraph.';

/** Leaves out a description already stored, so the model writes afresh rather than echoing it. */
export function buildDescribePrompt(facts: ProfileFacts): string {
  const config = maskSecrets(facts.config);
  const withoutDescription =
    config !== null && typeof config === 'object' && !Array.isArray(config)
      ? Object.fromEntries(Object.entries(config).filter(([key]) => key !== 'description'))
      : config;
  return [
    `Profile: ${facts.name}`,
    `Config (secrets masked): ${JSON.stringify(withoutDescription ?? {})}`,
    `Skills: ${facts.skills.length === 0 ? 'none' : facts.skills.map((s) => `${s.name}: ${s.description}`).join('; ')}`,
    `Recent session titles: ${facts.sessionTitles.length === 0 ? 'none' : facts.sessionTitles.join('; ')}`,
  ].join('\n');
}

export type DescriptionParse = { readonly ok: true; readonly description: string } | { readonly ok: false; readonly reason: string };

/** One paragraph: whitespace runs (newlines included) become single spaces; blank is malformed. */
export function parseDescription(text: string): DescriptionParse {
  const paragraph = text.replace(/\s+/g, ' ').trim();
  if (paragraph === '') return { ok: false, reason: 'the profile_describer model gave a blank answer (malformed)' };
  return { ok: true, description: paragraph };
}
