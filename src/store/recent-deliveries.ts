// A bounded memory of the delivery ids this process accepted, in front of the dedup table, so the
// listener's duplicate check (which runs before the rate limit, for every signed event) does not
// cost a query. It is used only while it is complete for the window asked about: it starts from
// the table's rows for that window, and every eviction moves its horizon forward. Acceptance
// itself still checks the table inside its transaction, so a stale answer here can at most spend
// a rate-limit slot on a duplicate; it can never accept one twice.

export type RecentDeliveries = {
  /** true / false when the memory knows; undefined when the table must be asked. */
  seen(route: string, deliveryId: string, since: number): boolean | undefined;
  remember(route: string, deliveryId: string, at: number): void;
  /** Loads the table's rows for a window (once); `complete` false when they did not all fit. */
  prime(rows: Iterable<{ route: string; delivery_id: string; seen_at: number }>, since: number, complete: boolean): void;
  /** Drops what is older than `before` (the table was pruned): such ids are no longer known. */
  forget(before: number): void;
  readonly primed: boolean;
  size(): number;
};

export const RECENT_DELIVERIES_CAP = 200_000;

const keyOf = (route: string, deliveryId: string) => `${route}\n${deliveryId}`;

export function createRecentDeliveries(cap = RECENT_DELIVERIES_CAP): RecentDeliveries {
  // Insertion order is time order (records are only added with the current time).
  const entries = new Map<string, number>();
  let knownFrom = Number.POSITIVE_INFINITY; // nothing is known until primed
  let forgottenUpTo = Number.NEGATIVE_INFINITY;
  let primed = false;
  const horizon = () => Math.max(knownFrom, forgottenUpTo);

  function add(key: string, at: number): void {
    entries.delete(key);
    entries.set(key, at);
    if (entries.size > cap) {
      const [oldestKey, oldestAt] = entries.entries().next().value as [string, number];
      entries.delete(oldestKey);
      // Anything at or before the evicted record may have been forgotten.
      forgottenUpTo = Math.max(forgottenUpTo, oldestAt + 1);
    }
  }

  return {
    seen(route, deliveryId, since) {
      if (!primed || since < horizon()) return undefined;
      const at = entries.get(keyOf(route, deliveryId));
      return at !== undefined && at >= since;
    },
    remember(route, deliveryId, at) {
      add(keyOf(route, deliveryId), at);
    },
    prime(rows, since, complete) {
      const sorted = [...rows].sort((a, b) => a.seen_at - b.seen_at);
      for (const row of sorted) add(keyOf(row.route, row.delivery_id), row.seen_at);
      knownFrom = since;
      primed = complete;
    },
    forget(before) {
      for (const [key, at] of entries) {
        if (at >= before) break;
        entries.delete(key);
      }
      forgottenUpTo = Math.max(forgottenUpTo, before);
    },
    get primed() {
      return primed;
    },
    size: () => entries.size,
  };
}
