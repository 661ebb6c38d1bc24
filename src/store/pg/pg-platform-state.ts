// SCAFFOLD (replaced by the real module before this branch is merged).
import type { PlatformStore } from '../platform-types.js';
import type { PgContext } from './pg-context.js';

export function createPgPlatformStore(_ctx: PgContext): PlatformStore {
  return new Proxy({} as PlatformStore, { get: (_t, name) => () => Promise.reject(new Error(`createPgPlatformStore.${String(name)}: not built yet`)) });
}
