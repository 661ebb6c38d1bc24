// What a human's reply in one of Iris's finding threads means (DECISIONS § "PR review findings"):
// a question for the bot (it mentions it), a dismissal of the finding for good ("won't fix",
// "wontfix", "not a bug", "by design"), or feedback kept on the finding. Pure.

export type ThreadReply = 'question' | 'dismissal' | 'feedback';

const DISMISSAL = /won['’]?t\s*fix|\bnot a bug\b|\bby design\b/i;

export function readThreadReply(body: string, mentionsBot: boolean): ThreadReply {
  if (mentionsBot) return 'question';
  return DISMISSAL.test(body) ? 'dismissal' : 'feedback';
}
