// What a run on a pull-request route is asked: an automatic review (full, or of the commits since
// the last review), or a maintainer's command. Pure: the compare result comes in as a value.
import type { CommitRelation } from '../delivery/pr-forge.js';
import type { PrCommand } from './pr-commands.js';
import type { PrEvent } from './pr-event.js';

const short = (sha: string) => sha.slice(0, 12);

const name = (pr: Pick<PrEvent, 'repo' | 'number' | 'title'>) => `${pr.repo}#${pr.number}${pr.title ? ` ("${pr.title}")` : ''}`;

/** What the host said of the last reviewed head against the new one; undefined when it could not be asked. */
export type PushRange = { readonly reviewedSha: string; readonly headSha: string; readonly relation: CommitRelation | undefined; readonly commits: number };

/**
 * The note added to a push's review prompt: review only the new commits when the last reviewed
 * head is an ancestor of the new one, else say why the whole PR is reviewed again.
 */
export function pushReviewNote(range: PushRange): string {
  const { reviewedSha, headSha } = range;
  switch (range.relation) {
    case 'ahead':
      return [
        `New commits were pushed since your last review of this pull request (above in this conversation).`,
        `Review only these commits: ${short(reviewedSha)}..${short(headSha)} (compare range ${reviewedSha}..${headSha}, ${range.commits} commit${range.commits === 1 ? '' : 's'}).`,
        'Do not repeat findings from your earlier review unless these commits change them.',
      ].join('\n');
    case 'lost':
    case 'diverged':
    case 'behind':
      return `The commit you last reviewed (${short(reviewedSha)}) is no longer part of this branch (a force-push rewrote it), so this is a full review: review the whole pull request again at ${short(headSha)}.`;
    case 'identical':
      return `No new commits since your last review (${short(headSha)}).`;
    case undefined:
      return `The code host could not say how ${short(headSha)} relates to your last review (${short(reviewedSha)}), so this is a full review: review the whole pull request again.`;
  }
}

export function commandPrompt(command: Exclude<PrCommand, { kind: 'pause' | 'resume' | 'help' }>, pr: PrEvent, author: string): string {
  switch (command.kind) {
    case 'review':
      return `@${author} asked for a full review of pull request ${name(pr)} with /review. Review the whole pull request.`;
    case 'describe':
      return `@${author} asked with /describe for a description of pull request ${name(pr)}: write one for its reviewers (what it changes and why, how to test it), in Markdown.`;
    case 'ask':
      return `@${author} asks about pull request ${name(pr)} with /ask:\n\n${command.question}\n\nAnswer the question; your answer is posted as a reply on the pull request.`;
    case 'mention':
      return `@${author} wrote to you on pull request ${name(pr)}:\n\n${command.text}\n\nAnswer them; your answer is posted as a reply on the pull request.`;
  }
}
