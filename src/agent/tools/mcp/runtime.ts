// The MCP part of an agent runtime: the manager for the config's enabled servers and the per-turn
// tool chooser. None when no server is enabled, so a run without MCP pays nothing for it.
import type { Config } from '../../../config/schema.js';
import { createMcpManager, type McpManager } from './manager.js';
import { resolveMcpServers, type McpServerProblem } from './servers.js';
import { createMcpTurnTools, type McpTurnLog, type McpTurnTools } from './turn-tools.js';

export type McpRuntime = {
  readonly manager: McpManager;
  readonly turnTools: McpTurnTools;
  /** Server entries that could not be used (neither command nor url, or both). */
  readonly problems: readonly McpServerProblem[];
};

export function createMcpRuntime(config: Pick<Config, 'mcp_servers' | 'mcp'>, log: McpTurnLog): McpRuntime | undefined {
  const { servers, problems } = resolveMcpServers(config);
  for (const problem of problems) log.warn({ server: problem.server, error: problem.error }, 'mcp server skipped');
  if (!servers.some((server) => server.enabled)) return undefined;
  const manager = createMcpManager({ servers, timeoutMs: config.mcp.timeout * 1000 });
  return { manager, turnTools: createMcpTurnTools({ manager, maxTools: config.mcp.max_tools, log }), problems };
}
