// The Profiles page's decisions, pure: which profile may be deleted (and why not), and whether a
// new name keeps the one name rule before it is sent (the server checks it again).
import { NAME_PATTERN, NAME_RULE, NAME_WORDS } from '../../domain/name-rule.js';
import type { ProfileList, ProfileRow } from './profiles-api.js';

export const DEFAULT_PROFILE = 'default';

/** Why the row has no Delete button, as a sentence for the page; undefined when it may be deleted. */
export function whyNotDeletable(row: ProfileRow, list: Pick<ProfileList, 'served' | 'stored_default'>): string | undefined {
  if (row.name === DEFAULT_PROFILE) return 'The default profile is the home itself and cannot be deleted.';
  if (row.name === list.served) return 'This dashboard serves it: serve another profile to delete it.';
  if (row.name === list.stored_default) return 'iris commands use it by default: run iris profile use default to delete it.';
  return undefined;
}

/** A refusal for a new profile's name before it is sent; undefined when it may be sent. */
export function newNameProblem(name: string, existing: readonly string[]): string | undefined {
  if (name === '') return 'Give the new profile a name.';
  if (!NAME_PATTERN.test(name)) return `A profile name must match ${NAME_RULE} (${NAME_WORDS}) and cannot contain "..".`;
  if (existing.includes(name)) return `A profile named ${name} already exists.`;
  return undefined;
}
