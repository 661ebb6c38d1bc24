import { describe, expect, it } from 'vitest';
import { readAllPages } from './list-pages.js';

describe('readAllPages', () => {
  it('follows the cursor to the last page', async () => {
    const cursors: Array<string | undefined> = [];
    const listing = await readAllPages(
      async (cursor) => {
        cursors.push(cursor);
        return cursor === undefined ? { items: [1, 2], nextCursor: 'b' } : { items: [3] };
      },
      { maxPages: 100, totalMs: 1000 },
    );
    expect(listing).toEqual({ ok: true, items: [1, 2, 3] });
    expect(cursors).toEqual([undefined, 'b']);
  });

  it('stops a server that always has a next page at the page limit', async () => {
    let calls = 0;
    const listing = await readAllPages(
      async () => {
        calls += 1;
        return { items: [calls], nextCursor: String(calls) };
      },
      { maxPages: 100, totalMs: 60_000 },
    );
    expect(listing).toEqual({ ok: false, error: 'its tool listing goes on past 100 pages' });
    expect(calls).toBe(100);
  });

  it('stops at the overall deadline, each page given only the time left', async () => {
    let clock = 0;
    const given: number[] = [];
    const listing = await readAllPages(
      async (_cursor, left) => {
        given.push(left);
        clock += 400;
        return { items: [], nextCursor: 'again' };
      },
      { maxPages: 100, totalMs: 1000, now: () => clock },
    );
    expect(listing).toEqual({ ok: false, error: 'listing its tools took longer than 1 s (mcp.timeout)' });
    expect(given).toEqual([1000, 600, 200]);
  });

  it('names the deadline when the last page timed out, and passes other errors on', async () => {
    let clock = 0;
    const timedOut = readAllPages(
      async () => {
        clock += 2000;
        throw new Error('Request timed out');
      },
      { maxPages: 100, totalMs: 1000, now: () => clock },
    );
    await expect(timedOut).resolves.toEqual({ ok: false, error: 'listing its tools took longer than 1 s (mcp.timeout)' });
    await expect(readAllPages(async () => Promise.reject(new Error('bad frame')), { maxPages: 100, totalMs: 1000 })).rejects.toThrow('bad frame');
  });
});
