// The comment commands of a PR-review route, and what a comment makes the bot do. Pure: the bot's
// login, whether the author may command it and the PR's stored state come in as values.
//
// A command is the first word of the comment (`/review`, `/ask <question>`, `/describe`, `/pause`,
// `/resume`, `/help`); a comment that mentions the bot (`@iris`, or its own login) anywhere is a
// free question. Everything else is conversation between humans and is left alone.
import { IRIS_MARKER, type PrComment } from './pr-event.js';

export type PrCommand =
  | { readonly kind: 'review' }
  | { readonly kind: 'ask'; readonly question: string }
  | { readonly kind: 'describe' }
  | { readonly kind: 'mention'; readonly text: string }
  | { readonly kind: 'pause' }
  | { readonly kind: 'resume' }
  | { readonly kind: 'help' };

export const BOT_MENTION = 'iris';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `@name` as a word of its own: not inside an e-mail address or a longer login. */
function mentions(body: string, name: string): boolean {
  return new RegExp(`(?<![\\w.@-])@${escapeRegExp(name)}(?![\\w-])`, 'i').test(body);
}

/** The command a comment gives, or undefined when it gives none. */
export function parsePrCommand(body: string, botLogin?: string): PrCommand | undefined {
  const trimmed = body.trim();
  const match = /^\/([a-z]+)(?:\s+([\s\S]*))?$/i.exec(trimmed);
  if (match) {
    const word = match[1]!.toLowerCase();
    const rest = (match[2] ?? '').trim();
    switch (word) {
      case 'review':
        return { kind: 'review' };
      case 'describe':
        return { kind: 'describe' };
      case 'pause':
        return { kind: 'pause' };
      case 'resume':
        return { kind: 'resume' };
      case 'help':
        return { kind: 'help' };
      case 'ask':
        // `/ask` alone has no question: the help says how to ask.
        return rest === '' ? { kind: 'help' } : { kind: 'ask', question: rest };
      default:
        break;
    }
  }
  const names = [BOT_MENTION, ...(botLogin && botLogin.toLowerCase() !== BOT_MENTION ? [botLogin] : [])];
  if (names.some((name) => mentions(trimmed, name))) return { kind: 'mention', text: trimmed };
  return undefined;
}

/** GitHub's associations of users with write access to the repository. */
export const TRUSTED_ASSOCIATIONS: readonly string[] = ['OWNER', 'MEMBER', 'COLLABORATOR'];

export type CommentReading =
  /** Never acted on: the bot's own, marked, edited or deleted. */
  | { readonly kind: 'ignore'; readonly reason: string }
  /** A human's new comment that is no command: conversation (a route without commands runs on it). */
  | { readonly kind: 'conversation' }
  | { readonly kind: 'command'; readonly command: PrCommand };

/**
 * What a new comment on the PR asks of the bot, before anyone's access is looked at. Loops are
 * impossible: the bot's own comments and anything carrying Iris's hidden marker are ignored first.
 */
export function readComment(comment: PrComment, botLogin: string | undefined): CommentReading {
  if (botLogin !== undefined && comment.author.toLowerCase() === botLogin.toLowerCase()) return { kind: 'ignore', reason: "the bot's own comment" };
  if (IRIS_MARKER.test(comment.body)) return { kind: 'ignore', reason: "a comment carrying Iris's marker" };
  if (!comment.created) return { kind: 'ignore', reason: 'an edited or deleted comment' };
  const command = parsePrCommand(comment.body, botLogin);
  return command === undefined ? { kind: 'conversation' } : { kind: 'command', command };
}

/** A command from someone without write access: refused politely, once per PR, then ignored. */
export function untrustedVerdict(refusedBefore: boolean): { readonly kind: 'refuse' } | { readonly kind: 'ignore'; readonly reason: string } {
  return refusedBefore ? { kind: 'ignore', reason: 'a command from a user without write access (refused before on this pull request)' } : { kind: 'refuse' };
}

export const HELP_TEXT = [
  'Commands for Iris (from users with write access):',
  '',
  '- `/review`: a full review of this pull request',
  '- `/ask <question>`: a question about it, answered in a reply',
  '- `/describe`: a description of the change, as a comment',
  '- `@iris <anything>`: a free question, in the same conversation',
  '- `/pause` and `/resume`: automatic reviews off and on for this pull request',
  '- `/help`: this list',
].join('\n');

export function refusalText(author: string): string {
  return `Sorry @${author}, I only take commands from people with write access to this repository. A maintainer can ask me with \`/review\` or \`/ask <question>\`.`;
}

export const PAUSED_TEXT = 'Automatic reviews are paused for this pull request. `/resume` turns them back on; `/review` still works.';
export const RESUMED_TEXT = 'Automatic reviews are on again for this pull request.';
