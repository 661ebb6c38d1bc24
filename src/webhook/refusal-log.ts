// Which refusals get a log line. Anyone can make the listener refuse a request (a bad signature, a
// body too large), so a line per refusal would let a stranger fill the disk at ~190 bytes a
// request. The first few refusals per route and remote address in each minute are logged; the
// rest are counted, and the gateway logs the counts once a minute. Pure but for the clock.

export type RefusalSamplerOptions = {
  /** Lines per (route, remote address) per window. */
  readonly perKey: number;
  readonly windowMs: number;
  /** Keys tracked at once; refusals of further keys are counted under OTHER_KEY, never logged. */
  readonly maxKeys: number;
  readonly nowMs: () => number;
};

export const REFUSAL_SAMPLING: Omit<RefusalSamplerOptions, 'nowMs'> = { perKey: 5, windowMs: 60_000, maxKeys: 10_000 };

/** Stands for every (route, address) pair beyond `maxKeys` in a window. */
export const OTHER_KEY = '(other)';

export type DroppedRefusals = {
  readonly total: number;
  /** Dropped lines per route (OTHER_KEY for the untracked). */
  readonly byRoute: Readonly<Record<string, number>>;
  /** The addresses with the most dropped lines, most first (at most 10). */
  readonly topRemotes: ReadonlyArray<{ readonly remote: string; readonly dropped: number }>;
};

type Entry = { logged: number; dropped: number; readonly route: string; readonly remote: string };

export function createRefusalSampler(options: RefusalSamplerOptions) {
  let windowStart = options.nowMs();
  let entries = new Map<string, Entry>();
  let other = 0;
  let pendingDrops: Entry[] = [];
  let pendingOther = 0;

  const roll = () => {
    const now = options.nowMs();
    if (now - windowStart < options.windowMs) return;
    windowStart = now;
    for (const entry of entries.values()) if (entry.dropped > 0) pendingDrops.push({ ...entry });
    pendingOther += other;
    entries = new Map();
    other = 0;
  };

  return {
    /** Should this refusal be logged? Counts it either way. */
    take(route: string, remote: string | undefined): boolean {
      roll();
      const address = remote ?? 'unknown';
      const key = `${route}\u0000${address}`;
      let entry = entries.get(key);
      if (!entry) {
        if (entries.size >= options.maxKeys) {
          other++;
          return false;
        }
        entry = { logged: 0, dropped: 0, route, remote: address };
        entries.set(key, entry);
      }
      if (entry.logged < options.perKey) {
        entry.logged++;
        return true;
      }
      entry.dropped++;
      return false;
    },
    /** The refusals not logged since the last call (those of the window in progress included). */
    drainDropped(): DroppedRefusals {
      roll();
      const all = [...pendingDrops, ...[...entries.values()].filter((e) => e.dropped > 0).map((e) => ({ ...e }))];
      const otherCount = pendingOther + other;
      for (const entry of entries.values()) entry.dropped = 0;
      pendingDrops = [];
      pendingOther = 0;
      other = 0;
      const byRoute: Record<string, number> = {};
      const byRemote = new Map<string, number>();
      for (const entry of all) {
        byRoute[entry.route] = (byRoute[entry.route] ?? 0) + entry.dropped;
        byRemote.set(entry.remote, (byRemote.get(entry.remote) ?? 0) + entry.dropped);
      }
      if (otherCount > 0) byRoute[OTHER_KEY] = otherCount;
      const topRemotes = [...byRemote]
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .slice(0, 10)
        .map(([remote, dropped]) => ({ remote, dropped }));
      const total = all.reduce((sum, e) => sum + e.dropped, 0) + otherCount;
      return { total, byRoute, topRemotes };
    },
  };
}

export type RefusalSampler = ReturnType<typeof createRefusalSampler>;
