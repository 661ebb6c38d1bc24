// `iris skills search`: the prefilter picks candidates from every hub, the skills_hub slot ranks
// them and says why. Without a usable ranking the prefilter's order stands, with a warning: a
// search that cannot be ranked is still a search.
import { askStrict, type AskSlot } from '../routing/strict-answer.js';
import type { HubEntry } from './hub-index.js';
import { prefilter } from './prefilter.js';
import { buildRankingFix, buildRankingPrompt, parseRanking, RANKING_MAX_TOKENS, SKILLS_HUB_SYSTEM } from './ranking.js';

export type SearchHit = HubEntry & { readonly reason?: string };

export type SearchOutcome = {
  readonly hits: readonly SearchHit[];
  readonly ranked: boolean;
  /** Why the hits are in prefilter order, when they are. */
  readonly warning?: string;
};

export async function rankCandidates(query: string, entries: readonly HubEntry[], ask: AskSlot): Promise<SearchOutcome> {
  const candidates = prefilter(query, entries);
  if (candidates.length === 0) return { hits: [], ranked: false };
  const names = new Set(candidates.map((c) => c.name));
  const ranking = await askStrict({
    ask: (messages) => ask(SKILLS_HUB_SYSTEM, messages, RANKING_MAX_TOKENS),
    prompt: buildRankingPrompt(query, candidates),
    parse: (text) => parseRanking(text, names),
    fix: buildRankingFix,
  });
  if (!ranking.ok) {
    const why = ranking.kind === 'slot_failed' ? `the skills_hub slot failed: ${ranking.error}` : `the skills_hub slot's answer was malformed twice (${ranking.error})`;
    return { hits: candidates, ranked: false, warning: `${why}; showing the prefilter order` };
  }
  // A name in two hubs is two hits, both with the slot's reason, in prefilter order.
  const hits = ranking.value.flatMap((r) => candidates.filter((c) => c.name === r.name).map((c) => ({ ...c, reason: r.reason })));
  return { hits, ranked: true };
}
