// The one rule for names that come from outside and become folder names or URL paths (DECISIONS §
// Dashboard sign-in and roles): profiles ($IRIS_HOME/profiles/<name>), skills (skills/<name>/) and
// webhook routes (/webhooks/<name>). A name a request, a flag or a model sends must never leave its
// folder, and "is this name safe?" must have one answer, so every check and every path built from
// such a name goes through here. The rule's text and patterns are in src/domain/name-rule.ts.
import { join } from 'node:path';
import { NAME_RULE, NAME_WORDS } from '../domain/name-rule.js';

export { NAME_PATTERN, NAME_RULE, NAME_WORDS } from '../domain/name-rule.js';

export const NAME_KINDS = ['profile', 'skill', 'route'] as const;
export type NameKind = (typeof NAME_KINDS)[number];

const RULE = new RegExp(NAME_RULE);

export type NameCheck = { readonly ok: true; readonly name: string } | { readonly ok: false; readonly error: string };

/** How a refused name is shown: JSON quoting makes NUL, newlines and escape codes visible text; a huge name is cut. */
const SHOWN_CHARS = 80;
function shown(name: string): string {
  return JSON.stringify(name.length > SHOWN_CHARS ? `${name.slice(0, SHOWN_CHARS)}…` : name);
}

/** Whether `name` may name a `kind`; a refusal is one sentence naming the rule. */
export function checkName(kind: NameKind, name: string): NameCheck {
  // `..` is refused on its own: the pattern lets dots through (a.b), and `a..b` is a name no one needs.
  if (RULE.test(name) && !name.includes('..')) return { ok: true, name };
  return { ok: false, error: `${kind} name ${shown(name)} must match ${NAME_RULE} (${NAME_WORDS}) and cannot contain ".."` };
}

/**
 * `<dir>/<name>` for a name of `kind`. Every caller checks the name where it arrives and answers
 * the user there; a bad name reaching this far is a bug in a caller, so it throws instead of
 * handing back a path outside `dir`.
 */
export function pathForName(dir: string, kind: NameKind, name: string): string {
  const checked = checkName(kind, name);
  if (!checked.ok) throw new Error(checked.error);
  return join(dir, name);
}
