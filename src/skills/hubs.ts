// Reading every hub of `skills.hubs`: each one alone, so a hub that is down or broken is named
// and the others still answer.
import { parseHubIndex, type HubEntry } from './hub-index.js';
import { utf8Text, type ReadSource, type SourceOptions } from './source.js';

export type HubProblem = { readonly hub: string; readonly error: string };

export type HubListing = {
  readonly entries: readonly HubEntry[];
  /** Hubs that gave nothing. */
  readonly failed: readonly HubProblem[];
  /** Entries skipped inside hubs that answered. */
  readonly skipped: readonly HubProblem[];
};

/** An index is a list of short entries; 5 MB is thousands of skills. */
export const HUB_INDEX_MAX_BYTES = 5 * 1024 * 1024;
export const HUB_TIMEOUT_MS = 30_000;

export async function readHubs(hubs: readonly string[], read: ReadSource, options: Partial<SourceOptions> = {}): Promise<HubListing> {
  const sourceOptions = { timeoutMs: HUB_TIMEOUT_MS, maxBytes: HUB_INDEX_MAX_BYTES, ...options };
  const results = await Promise.all(hubs.map(async (hub) => {
    const got = await read(hub, sourceOptions);
    if (!got.ok) return { hub, ok: false as const, error: got.error };
    const text = utf8Text(got.bytes);
    if (text === undefined) return { hub, ok: false as const, error: 'the index is not UTF-8 text' };
    const parsed = parseHubIndex(hub, text);
    return parsed.ok ? { hub, ...parsed } : { hub, ok: false as const, error: parsed.error };
  }));
  const entries: HubEntry[] = [];
  const failed: HubProblem[] = [];
  const skipped: HubProblem[] = [];
  for (const result of results) {
    if (!result.ok) failed.push({ hub: result.hub, error: result.error });
    else {
      entries.push(...result.entries);
      skipped.push(...result.skipped.map((error) => ({ hub: result.hub, error })));
    }
  }
  return { entries, failed, skipped };
}
