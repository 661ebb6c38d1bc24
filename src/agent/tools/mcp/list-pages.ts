// Reading a paged MCP listing (`tools/list` with `nextCursor`) within bounds (DECISIONS § MCP
// limits): at most 100 pages and `mcp.timeout` in all, so a server that always answers with a
// cursor, or answers each page just in time, cannot hold a turn. Past either bound the listing
// fails with a reason, and the server is skipped for the turn.
export const MAX_LISTING_PAGES = 100;

export type ListingPage<T> = { readonly items: readonly T[]; readonly nextCursor?: string | undefined };

export type ListingLimits = {
  readonly maxPages: number;
  /** The whole listing's time, in milliseconds. */
  readonly totalMs: number;
  readonly now?: () => number;
};

export type Listing<T> = { readonly ok: true; readonly items: T[] } | { readonly ok: false; readonly error: string };

/** `fetchPage` gets the cursor and the time left for that page; it may throw (a timeout, a protocol error). */
export async function readAllPages<T>(fetchPage: (cursor: string | undefined, timeLeftMs: number) => Promise<ListingPage<T>>, limits: ListingLimits): Promise<Listing<T>> {
  const now = limits.now ?? Date.now;
  const deadline = now() + limits.totalMs;
  const seconds = Math.round(limits.totalMs / 1000);
  const items: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; ; pages += 1) {
    if (pages === limits.maxPages) return { ok: false, error: `its tool listing goes on past ${limits.maxPages} pages` };
    const left = deadline - now();
    if (left <= 0) return { ok: false, error: `listing its tools took longer than ${seconds} s (mcp.timeout)` };
    let page: ListingPage<T>;
    try {
      page = await fetchPage(cursor, left);
    } catch (err) {
      if (deadline - now() <= 0) return { ok: false, error: `listing its tools took longer than ${seconds} s (mcp.timeout)` };
      throw err;
    }
    items.push(...page.items);
    if (page.nextCursor === undefined) return { ok: true, items };
    cursor = page.nextCursor;
  }
}
