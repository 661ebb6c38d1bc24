// SCAFFOLD (replaced by the real module before this branch is merged).
import type { PrThreads } from '../pr-thread-types.js';
import type { PgContext } from './pg-context.js';

export function createPgPrThreads(_ctx: PgContext): PrThreads {
  return new Proxy({} as PrThreads, { get: (_t, name) => () => Promise.reject(new Error(`createPgPrThreads.${String(name)}: not built yet`)) });
}
