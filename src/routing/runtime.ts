// Wiring routing to the real world for a process: agent.log for warnings and hops, one api-mode
// memory, one identity-token registry and the OAuth tokens of auth.json, shared by every call. The agent and the gateway build
// this once per process; each session then takes its own RoutingSnapshot.
import { authStorePath } from '../auth/store.js';
import { createOAuthTokenSource } from '../auth/token-source.js';
import type { Env, HomePaths } from '../config/home.js';
import { createLogger } from '../log/logger.js';
import type { Rotation } from '../log/rotation.js';
import { createApiModeMemory, createIdentityRegistry } from '../providers/provider-client.js';
import type { RoutingDeps } from './call-model.js';

export function createRoutingDeps(paths: HomePaths, env: Env, options: { sync?: boolean; rotation?: Rotation } = {}): RoutingDeps {
  const log = createLogger(paths, 'agent', { sync: options.sync ?? true, ...(options.rotation ? { rotation: options.rotation } : {}) });
  return {
    apiModeMemory: createApiModeMemory(),
    identityFor: createIdentityRegistry(env),
    oauthTokens: createOAuthTokenSource({ path: authStorePath(paths) }),
    log: {
      warn: (fields, message) => log.warn(fields, message),
      info: (fields, message) => log.info(fields, message),
    },
  };
}
