// The MCP servers of one agent process: started on first use (not at start-up), their tools
// listed with the config's include/exclude, and calls made with `mcp.timeout`. A server that dies
// is started again once per turn; after that its calls come back as tool errors until the next
// user message, so a server that crashes on every call cannot stall a turn in a restart loop.
import { connectMcpServer, type McpConnection, type McpConnectResult, type McpToolInfo } from './connection.js';
import { exposedToolName, keepsTool, type McpServer, type McpServerProblem } from './servers.js';
import { mapMcpResult, type McpToolText } from './tool-result.js';

export type McpAvailableTool = {
  readonly server: string;
  /** `mcp__<server>__<tool>`: what the model sees. */
  readonly exposedName: string;
  readonly info: McpToolInfo;
};

export type McpListing = { readonly tools: readonly McpAvailableTool[]; readonly errors: readonly McpServerProblem[] };

export type McpManagerOptions = {
  readonly servers: readonly McpServer[];
  /** `mcp.timeout` in milliseconds: a server's start, and each call. */
  readonly timeoutMs: number;
  /** Injectable for tests. */
  readonly connect?: (server: McpServer, timeoutMs: number) => Promise<McpConnectResult>;
};

type ServerState = {
  connection?: McpConnection;
  /** A start in progress, shared by everyone who needs the server meanwhile. */
  starting?: Promise<McpConnectResult>;
  /** Set once the server has run in this process: starting it again is a restart. */
  hasRun: boolean;
  restartedThisTurn: boolean;
};

export type McpManager = {
  /** A new user message: each server may be restarted once again. */
  beginTurn(): void;
  listTools(): Promise<McpListing>;
  callTool(server: string, tool: string, args: Readonly<Record<string, unknown>>, signal?: AbortSignal): Promise<McpToolText>;
  close(): Promise<void>;
};

export function createMcpManager(options: McpManagerOptions): McpManager {
  const connect = options.connect ?? connectMcpServer;
  const enabled = options.servers.filter((server) => server.enabled);
  const byName = new Map(enabled.map((server) => [server.name, server]));
  const states = new Map<string, ServerState>(enabled.map((server) => [server.name, { hasRun: false, restartedThisTurn: false }]));

  /** The live connection, starting (or restarting, within the turn's budget) the server when needed. */
  async function ensure(name: string): Promise<McpConnectResult> {
    const server = byName.get(name);
    const state = states.get(name);
    if (!server || !state) return { ok: false, error: `no enabled MCP server "${name}"` };
    if (state.connection?.alive()) return { ok: true, connection: state.connection };
    if (state.starting) return state.starting;
    if (state.hasRun) {
      if (state.restartedThisTurn) {
        return { ok: false, error: `MCP server "${name}" stopped and was already restarted once this turn; it is started again with the next message` };
      }
      state.restartedThisTurn = true;
    }
    const previous = state.connection;
    state.connection = undefined;
    state.starting = (async () => {
      await previous?.close();
      const result = await connect(server, options.timeoutMs);
      if (result.ok) {
        state.connection = result.connection;
        state.hasRun = true;
      }
      return result;
    })().finally(() => {
      state.starting = undefined;
    });
    return state.starting;
  }

  return {
    beginTurn() {
      for (const state of states.values()) state.restartedThisTurn = false;
    },

    async listTools() {
      const results = await Promise.all(enabled.map(async (server) => ({ server, result: await ensure(server.name) })));
      const tools: McpAvailableTool[] = [];
      const errors: McpServerProblem[] = [];
      const seen = new Set<string>();
      for (const { server, result } of results) {
        if (!result.ok) {
          errors.push({ server: server.name, error: result.error });
          continue;
        }
        for (const info of result.connection.tools) {
          if (!keepsTool(server, info.name)) continue;
          const exposedName = exposedToolName(server.name, info.name);
          // `a.b` and `a_b` both read `a_b` to the model: the first keeps the name.
          if (seen.has(exposedName)) {
            errors.push({ server: server.name, error: `tool "${info.name}" is skipped: its name reads as ${exposedName}, like another tool's` });
            continue;
          }
          seen.add(exposedName);
          tools.push({ server: server.name, exposedName, info });
        }
      }
      return { tools, errors };
    },

    async callTool(name, tool, args, signal) {
      const ready = await ensure(name);
      if (!ready.ok) return { ok: false, content: `MCP server "${name}" is not available: ${ready.error}` };
      const outcome = await ready.connection.call(tool, args, options.timeoutMs, signal);
      if (outcome.kind === 'answer') return mapMcpResult(outcome.answer);
      if (outcome.kind === 'failed') return { ok: false, content: `${tool} on MCP server "${name}" failed: ${outcome.error}` };
      const again = states.get(name)?.restartedThisTurn
        ? 'it was already restarted once this turn and stays stopped until the next message'
        : 'it is restarted for the next call';
      return { ok: false, content: `MCP server "${name}" stopped during the call to ${tool} (${outcome.error}); ${again}` };
    },

    async close() {
      await Promise.all(
        [...states.values()].map(async (state) => {
          const starting = state.starting;
          if (starting) await starting.catch(() => undefined);
          await state.connection?.close();
          state.connection = undefined;
        }),
      );
    },
  };
}
