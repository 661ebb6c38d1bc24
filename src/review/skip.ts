// Whether `.iris/review.yaml`'s `skip` rules say a pull request gets no review, and why (the
// reason is shown as the event's `skipped` reason). Pure: the PR's facts come from the code host.
import type { ReviewRules } from './rules.js';

export type PrFacts = { readonly draft: boolean; readonly authorIsBot: boolean; readonly title: string };

export function reviewSkipReason(rules: Pick<ReviewRules, 'skip'>, pr: PrFacts): string | undefined {
  const { skip } = rules;
  if (skip.drafts && pr.draft) return 'the pull request is a draft (.iris/review.yaml skip.drafts)';
  if (skip.bots && pr.authorIsBot) return 'the pull request was opened by a bot (.iris/review.yaml skip.bots)';
  const keyword = skip.titleKeywords.find((word) => titleHas(pr.title, word));
  if (keyword !== undefined) return `the title contains ${JSON.stringify(keyword)} (.iris/review.yaml skip.title_keywords)`;
  return undefined;
}

/**
 * The keyword as a word or phrase of the title, without regard to case: `WIP` skips "wip: parser"
 * and "[WIP] parser", not "Wiping the cache".
 */
function titleHas(title: string, keyword: string): boolean {
  const word = keyword.trim().toLowerCase();
  if (word === '') return false;
  const text = title.toLowerCase();
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    const before = text[at - 1];
    const after = text[at + word.length];
    if (!isWordChar(before) && !isWordChar(after)) return true;
  }
  return false;
}

const isWordChar = (char: string | undefined): boolean => char !== undefined && /[\p{L}\p{N}_]/u.test(char);
