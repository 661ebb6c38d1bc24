// `iris mcp list | tools [<server>] | add | remove | test <server>`: the MCP servers of config.yaml
// (docs/mcp.md). `list` reads the config only; `tools` and `test` start the servers.
import type { HomePaths } from '../../config/home.js';
import type { Result } from '../../config/result.js';
import type { ValidatedConfig } from '../../config/validate.js';
import { updateConfig } from '../../config/store.js';
import { createMcpManager, type McpAvailableTool } from '../../agent/tools/mcp/manager.js';
import { buildServerEntry, serverView, type AddOptions } from '../../agent/tools/mcp/server-entry.js';
import { resolveMcpServers, type McpServer, type McpServerProblem } from '../../agent/tools/mcp/servers.js';
import { printData, printJson, printWarning } from '../console.js';
import { openConfig, openHome, reportConfigProblems } from '../context.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import { formatTable } from '../table.js';

type JsonOption = { json?: boolean };

async function loadServers(): Promise<{ paths: HomePaths; servers: readonly McpServer[]; problems: readonly McpServerProblem[]; timeoutMs: number }> {
  const paths = await openHome();
  const loaded = await openConfig(paths);
  const { servers, problems } = resolveMcpServers(loaded.config);
  return { paths, servers, problems, timeoutMs: loaded.config.mcp.timeout * 1000 };
}

function findServer(servers: readonly McpServer[], name: string): McpServer {
  const server = servers.find((s) => s.name === name);
  if (!server) throw new CliFailure('not_found', `no MCP server "${name}" in config.yaml (iris mcp list shows them)`);
  return server;
}

export async function mcpList(options: JsonOption): Promise<void> {
  const { servers, problems } = await loadServers();
  const views = servers.map(serverView);
  if (options.json) {
    printJson({ servers: views, problems });
    return;
  }
  for (const problem of problems) printWarning(`mcp_servers.${problem.server} is skipped: ${problem.error}`);
  if (views.length === 0) {
    printData('no MCP servers; add one with iris mcp add <name> -- <command> [args…] or iris mcp add <name> --url <url>');
    return;
  }
  printData(formatTable(['server', 'enabled', 'transport', 'command or url'], views.map((v) => [v.name, v.enabled ? 'yes' : 'no', v.transport, v.target])));
}

function toolJson(tool: McpAvailableTool) {
  return { server: tool.server, name: tool.info.name, exposed_name: tool.exposedName, read_only: tool.info.readOnly, description: tool.info.description, input_schema: tool.info.inputSchema };
}

const firstLine = (text: string) => {
  const line = text.split('\n')[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
};

/** Exit 0 when every asked server answered, 1 when one did not. */
export async function mcpTools(name: string | undefined, options: JsonOption): Promise<number> {
  const { servers, timeoutMs } = await loadServers();
  // A named server is started even when disabled: the user asked for it.
  const chosen = name === undefined ? servers.filter((s) => s.enabled) : [{ ...findServer(servers, name), enabled: true }];
  const manager = createMcpManager({ servers: chosen, timeoutMs });
  try {
    const listing = await manager.listTools();
    if (options.json) printJson({ tools: listing.tools.map(toolJson), errors: listing.errors });
    else {
      for (const error of listing.errors) printWarning(`MCP server ${error.server}: ${error.error}`);
      if (listing.tools.length > 0) {
        printData(formatTable(['tool', 'read-only', 'description'], listing.tools.map((t) => [t.exposedName, t.info.readOnly ? 'yes' : 'no', firstLine(t.info.description)])));
      } else if (listing.errors.length === 0) printData(chosen.length === 0 ? 'no enabled MCP servers' : 'no tools');
    }
    return listing.errors.length > 0 ? EXIT.failure : EXIT.ok;
  } finally {
    await manager.close();
  }
}

/** Exit 0 when the server starts and lists its tools, 1 with the reason when not. */
export async function mcpTest(name: string, options: JsonOption): Promise<number> {
  const { servers, timeoutMs } = await loadServers();
  const server = findServer(servers, name);
  const manager = createMcpManager({ servers: [{ ...server, enabled: true }], timeoutMs });
  const started = Date.now();
  try {
    const listing = await manager.listTools();
    const ms = Date.now() - started;
    const error = listing.errors[0]?.error;
    const tools = listing.tools.map((t) => t.exposedName);
    if (options.json) printJson({ server: name, ok: error === undefined, enabled: server.enabled, ms, tools, ...(error === undefined ? {} : { error }) });
    else if (error !== undefined) process.stderr.write(`iris: MCP server ${name} failed: ${error}\n`);
    else printData(`MCP server ${name} is healthy: ${tools.length} tool${tools.length === 1 ? '' : 's'} in ${ms} ms${server.enabled ? '' : ' (disabled in config.yaml)'}`);
    return error === undefined ? EXIT.ok : EXIT.failure;
  } finally {
    await manager.close();
  }
}

function applied<T>(paths: HomePaths, updated: Result<T & { validated: ValidatedConfig }>): T & { validated: ValidatedConfig } {
  if (!updated.ok) throw new CliFailure(updated.error.code, updated.error.message);
  reportConfigProblems(paths.configPath, updated.validated);
  return updated;
}

export async function mcpAdd(name: string, options: AddOptions & JsonOption): Promise<void> {
  const built = buildServerEntry(name, options);
  if (!built.ok) throw new CliFailure('usage', built.error);
  const paths = await openHome();
  const { replaced } = applied(
    paths,
    await updateConfig<{ replaced: boolean }>(paths, (doc) => {
      const replaced = doc.hasIn(['mcp_servers', name]);
      doc.setIn(['mcp_servers', name], doc.createNode(built.entry));
      return { ok: true, replaced };
    }),
  );
  const server = resolveMcpServers({ mcp_servers: { [name]: { enabled: true, ...built.entry } } }).servers[0];
  const view = server ? serverView(server) : undefined;
  if (options.json) {
    printJson({ name, replaced, ...(view ? { transport: view.transport, target: view.target, enabled: view.enabled } : {}) });
    return;
  }
  printData(`${replaced ? 'replaced' : 'added'} MCP server ${name}${view ? ` (${view.transport}: ${view.target})` : ''}; check it with iris mcp test ${name}`);
}

export async function mcpRemove(name: string, options: JsonOption): Promise<void> {
  const paths = await openHome();
  const { removed } = applied(
    paths,
    await updateConfig<{ removed: boolean }>(paths, (doc) => {
      const removed = doc.hasIn(['mcp_servers', name]);
      if (removed) doc.deleteIn(['mcp_servers', name]);
      return { ok: true, removed };
    }),
  );
  if (!removed) throw new CliFailure('not_found', `no MCP server "${name}" in config.yaml (iris mcp list shows them)`);
  if (options.json) printJson({ name, removed: true });
  else printData(`removed MCP server ${name}`);
}
