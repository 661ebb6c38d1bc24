// One hub search, as `iris skills search` and the dashboard's search box run it: every hub of
// `skills.hubs` read, the prefilter's candidates ranked by the skills_hub slot over the config's
// routes (its usage recorded under the caller's source). What went wrong on the way is a value:
// no hubs configured, no hub answering, a hub or an entry skipped, the slot failing.
import { loadOAuthView } from '../auth/view.js';
import type { Env, HomePaths } from '../config/home.js';
import type { Config } from '../config/schema.js';
import { callCounted } from '../agent/slot-usage.js';
import type { UsageSource } from '../domain/usage-ledger.js';
import { snapshotRoutes } from '../routing/call-model.js';
import { createRoutingDeps } from '../routing/runtime.js';
import type { AskSlot } from '../routing/strict-answer.js';
import { rotationOf } from '../log/rotation.js';
import type { UsageRecord } from '../store/types.js';
import { readHubs, type HubListing } from './hubs.js';
import { rankCandidates, type SearchHit, type SearchOutcome } from './search.js';
import { entryLocation, type ReadSource } from './source.js';

export const NO_HUBS = 'no skills hubs: list the URLs or paths of hub indexes under skills.hubs in config.yaml (docs/skills.md)';
export const NO_HUB_ANSWERED = 'no skills hub answered';

export type HubSearchDeps = {
  readonly paths: HomePaths;
  readonly env: Env;
  readonly config: Readonly<Config>;
  readonly read: ReadSource;
  /** Whose search it is, for `iris usage` (`cli`, `dashboard`). */
  readonly usageSource: UsageSource;
  readonly recordUsage: (record: UsageRecord) => Promise<void>;
};

export type HubSearchResult =
  | { readonly ok: false; readonly code: 'no_hubs'; readonly error: string }
  | { readonly ok: false; readonly code: 'no_hub_answered'; readonly error: string; readonly listing: HubListing }
  | {
      readonly ok: true;
      readonly listing: HubListing;
      /** Why the slot's routes may lack an OAuth credential (a warning, not a failure). */
      readonly oauthProblem?: string;
      readonly outcome: SearchOutcome;
    };

/** The lines a listing's failed hubs and skipped entries earn on stderr (or beside the results). */
export function hubWarnings(listing: HubListing): string[] {
  return [
    ...listing.failed.map((problem) => `skills hub ${problem.hub} failed: ${problem.error}`),
    ...listing.skipped.map((problem) => `skills hub ${problem.hub}: ${problem.error} (entry skipped)`),
  ];
}

export async function searchHubs(query: string, deps: HubSearchDeps): Promise<HubSearchResult> {
  const hubs = deps.config.skills.hubs;
  if (hubs.length === 0) return { ok: false, code: 'no_hubs', error: NO_HUBS };
  const listing = await readHubs(hubs, deps.read);
  if (listing.failed.length === hubs.length) return { ok: false, code: 'no_hub_answered', error: NO_HUB_ANSWERED, listing };
  const oauth = await loadOAuthView(deps.paths);
  const routes = snapshotRoutes(deps.config, deps.env, oauth.view);
  const routing = createRoutingDeps(deps.paths, deps.env, { rotation: rotationOf(deps.config.logging) });
  const ask: AskSlot = async (system, messages, maxOutputTokens) => {
    const result = await callCounted('skills_hub', { system, messages, maxOutputTokens }, routes, routing, { source: deps.usageSource, record: deps.recordUsage });
    return result.ok ? { ok: true, text: result.text } : { ok: false, error: result.error.message };
  };
  const outcome = await rankCandidates(query, listing.entries, ask);
  return { ok: true, listing, ...(oauth.problem ? { oauthProblem: oauth.problem } : {}), outcome };
}

/** A hit as JSON (the CLI's --json and the dashboard's answer): `source` is the hub that listed it. */
export const hitJson = (hit: SearchHit) => ({
  name: hit.name,
  description: hit.description,
  source: hit.hub,
  url: entryLocation(hit.hub, hit.url) ?? hit.url,
  tags: hit.tags,
  reason: hit.reason ?? null,
});
