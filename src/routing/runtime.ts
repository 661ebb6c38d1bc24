// Wiring routing to the real world for a process: agent.log for warnings and hops, one api-mode
// memory and one identity-token registry shared by every call. The agent and the gateway build
// this once per process; each session then takes its own RoutingSnapshot.
import type { Env, HomePaths } from '../config/home.js';
import { createLogger } from '../log/logger.js';
import { createApiModeMemory, createIdentityRegistry } from '../providers/provider-client.js';
import type { RoutingDeps } from './call-model.js';

export function createRoutingDeps(paths: HomePaths, env: Env, options: { sync?: boolean } = {}): RoutingDeps {
  const log = createLogger(paths, 'agent', { sync: options.sync ?? true });
  return {
    apiModeMemory: createApiModeMemory(),
    identityFor: createIdentityRegistry(env),
    log: {
      warn: (fields, message) => log.warn(fields, message),
      info: (fields, message) => log.info(fields, message),
    },
  };
}
