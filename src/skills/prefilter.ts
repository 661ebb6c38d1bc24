// The lexical prefilter: which hub entries are worth showing the skills_hub slot. A query word
// in the name counts most, then in a tag, then in the description; entries that match no word
// are not candidates. Ties keep the hubs' own order, so the result is stable.
import type { HubEntry } from './hub-index.js';

export const PREFILTER_LIMIT = 20;

const WEIGHT = { nameWord: 4, namePart: 3, tag: 2, description: 1 } as const;

export function queryWords(query: string): readonly string[] {
  return [...new Set(query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 0))];
}

const wordsOf = (text: string) => new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0));

export function scoreEntry(words: readonly string[], entry: HubEntry): number {
  const name = entry.name.toLowerCase();
  const nameWords = wordsOf(entry.name);
  const tags = new Set(entry.tags.map((tag) => tag.toLowerCase()));
  const description = entry.description.toLowerCase();
  let score = 0;
  for (const word of words) {
    if (nameWords.has(word)) score += WEIGHT.nameWord;
    else if (name.includes(word)) score += WEIGHT.namePart;
    if (tags.has(word)) score += WEIGHT.tag;
    if (description.includes(word)) score += WEIGHT.description;
  }
  return score;
}

export function prefilter(query: string, entries: readonly HubEntry[], limit = PREFILTER_LIMIT): readonly HubEntry[] {
  const words = queryWords(query);
  return entries
    .map((entry, order) => ({ entry, order, score: scoreEntry(words, entry) }))
    .filter((scored) => scored.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, limit)
    .map((scored) => scored.entry);
}
