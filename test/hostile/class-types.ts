// What a class of hostile input is: how many to send, how to build the i-th, and which outcomes
// are fine for it (any 5xx, a timeout or an outcome not listed fails the run).
import type { Plan } from './raw-exchange.js';

/** The route's max_body_bytes in the hostile run (small, so oversized bodies are cheap to send). */
export const MAX_BODY_BYTES = 262_144;

export type Ctx = {
  readonly route: string;
  readonly secret: string;
  /** A delivery the gateway has accepted already: sending it again is a duplicate. */
  readonly seedDelivery: string;
  /** A delivery id not used before in this run. */
  delivery(): string;
};

export type HostileClass = {
  readonly name: string;
  readonly count: number;
  /** Final statuses as text, 'no answer' (the server closed) or 'aborted' (we dropped it). */
  readonly allowed: readonly string[];
  plan(i: number, ctx: Ctx): Plan;
};

/** The i-th of several variants, round robin. */
export function pick<T>(variants: readonly T[], i: number): T {
  return variants[i % variants.length]!;
}
