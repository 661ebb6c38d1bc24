// Where a review finding recorded on a pull request stands (DECISIONS § PR review findings): the
// store keeps it, placement decides repeats and outdated ones from it.
//   open       posted and not answered
//   answered   a person replied in its thread (feedback): not raised again
//   dismissed  a reply said "won't fix" (or the like): never raised again on this PR
//   resolved   its thread was resolved on the code host
//   outdated   its line's code left the diff; Iris resolved the thread with a reply
export const FINDING_STATES = ['open', 'answered', 'dismissed', 'resolved', 'outdated'] as const;
export type FindingState = (typeof FINDING_STATES)[number];
