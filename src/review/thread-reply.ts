// What a human's reply in one of Iris's finding threads means (DECISIONS § "PR review findings"):
// a question for the bot (it mentions it), a dismissal of the finding for good ("won't fix",
// "wontfix", "not a bug", "by design"), or feedback kept on the finding; and what resolving or
// unresolving its thread on the code host does to the finding's state. Pure.
import type { FindingState } from '../domain/finding-states.js';

export type ThreadReply = 'question' | 'dismissal' | 'feedback';

const DISMISSAL = /won['’]?t\s*fix|\bnot a bug\b|\bby design\b/i;

export function readThreadReply(body: string, mentionsBot: boolean): ThreadReply {
  if (mentionsBot) return 'question';
  return DISMISSAL.test(body) ? 'dismissal' : 'feedback';
}

/**
 * The finding's new state when a person resolves (`resolved: true`) or unresolves its thread, or
 * undefined when that changes nothing: an open or answered finding becomes resolved; a resolved one
 * open again. A dismissal holds for good, and an outdated finding's thread was resolved by Iris
 * itself (its code is gone: reopening the thread does not bring it back).
 */
export function threadStateChange(state: FindingState, resolved: boolean): FindingState | undefined {
  if (resolved) return state === 'open' || state === 'answered' ? 'resolved' : undefined;
  return state === 'resolved' ? 'open' : undefined;
}
