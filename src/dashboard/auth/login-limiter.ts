// Failed sign-ins per client address (DECISIONS: the 6th failure from one address within 60 s is
// 429 with Retry-After). A sliding window of failure times per address; a success does not wipe
// the count (a guesser who once knew the password learns nothing from it). Bounded in addresses
// and in times kept per address, with an injectable clock.
export const LOGIN_WINDOW_MS = 60_000;
export const LOGIN_MAX_FAILURES = 5;
const MAX_ADDRESSES = 10_000;

export type LoginGate = { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number };

export function createLoginLimiter(options: { readonly now?: () => number; readonly windowMs?: number; readonly maxFailures?: number; readonly maxAddresses?: number } = {}) {
  const now = options.now ?? Date.now;
  const windowMs = options.windowMs ?? LOGIN_WINDOW_MS;
  const maxFailures = options.maxFailures ?? LOGIN_MAX_FAILURES;
  const maxAddresses = options.maxAddresses ?? MAX_ADDRESSES;
  const failures = new Map<string, number[]>();

  function recent(address: string, at: number): number[] {
    const kept = (failures.get(address) ?? []).filter((time) => at - time < windowMs);
    if (kept.length === 0) failures.delete(address);
    else failures.set(address, kept);
    return kept;
  }

  // Tries whose password is still being checked count against the limit, so that 100 guesses
  // sent at once cannot all pass the check before the first failure is recorded.
  const pending = new Map<string, number>();

  return {
    /** May `address` try a password now? When it may, the try counts until `settle`. */
    begin(address: string): LoginGate {
      const at = now();
      const kept = recent(address, at);
      const inFlight = pending.get(address) ?? 0;
      if (kept.length + inFlight >= maxFailures) {
        const oldest = kept.length >= maxFailures ? kept[kept.length - maxFailures]! : (kept[0] ?? at);
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - at) / 1000)) };
      }
      pending.set(address, inFlight + 1);
      return { ok: true };
    },
    /** The try that `begin` let through is over; `failed` records it in the window. */
    settle(address: string, failed: boolean): void {
      const inFlight = (pending.get(address) ?? 1) - 1;
      if (inFlight <= 0) pending.delete(address);
      else pending.set(address, inFlight);
      if (!failed) return;
      const at = now();
      const kept = recent(address, at);
      kept.push(at);
      failures.delete(address);
      failures.set(address, kept.slice(-maxFailures));
      while (failures.size > maxAddresses) failures.delete(failures.keys().next().value!);
    },
  };
}

export type LoginLimiter = ReturnType<typeof createLoginLimiter>;
