// Which MCP servers config.yaml declares and how each is reached: `command` means a child process
// spoken to over stdio, `url` a streamable-HTTP endpoint. Pure: no server is started here.
import { createHash } from 'node:crypto';
import type { Config, McpServerConfig } from '../../../config/schema.js';

export type McpTransportSpec =
  | {
      readonly kind: 'stdio';
      readonly command: string;
      readonly args: readonly string[];
      readonly env?: Readonly<Record<string, string>>;
      readonly cwd?: string;
    }
  | { readonly kind: 'http'; readonly url: string; readonly headers: Readonly<Record<string, string>> };

export type McpServer = {
  readonly name: string;
  readonly enabled: boolean;
  readonly transport: McpTransportSpec;
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
};

export type McpServerProblem = { readonly server: string; readonly error: string };

export type ResolvedMcpServers = { readonly servers: readonly McpServer[]; readonly problems: readonly McpServerProblem[] };

/** A server with both or neither of `command` and `url` is a problem, not a guess. */
export function resolveMcpServer(name: string, entry: McpServerConfig): { ok: true; server: McpServer } | { ok: false; error: string } {
  if (entry.command !== undefined && entry.url !== undefined) return { ok: false, error: 'has both command (stdio) and url (HTTP); keep one' };
  let transport: McpTransportSpec;
  if (entry.command !== undefined) {
    transport = {
      kind: 'stdio',
      command: entry.command,
      args: entry.args ?? [],
      ...(entry.env ? { env: entry.env } : {}),
      ...(entry.cwd ? { cwd: entry.cwd } : {}),
    };
  } else if (entry.url !== undefined) {
    transport = { kind: 'http', url: entry.url, headers: entry.headers ?? {} };
  } else {
    return { ok: false, error: 'needs command (stdio) or url (streamable HTTP)' };
  }
  return {
    ok: true,
    server: {
      name,
      enabled: entry.enabled,
      transport,
      ...(entry.tools?.include ? { include: entry.tools.include } : {}),
      ...(entry.tools?.exclude ? { exclude: entry.tools.exclude } : {}),
    },
  };
}

export function resolveMcpServers(config: Pick<Config, 'mcp_servers'>): ResolvedMcpServers {
  const servers: McpServer[] = [];
  const problems: McpServerProblem[] = [];
  for (const [name, entry] of Object.entries(config.mcp_servers)) {
    const resolved = resolveMcpServer(name, entry);
    if (resolved.ok) servers.push(resolved.server);
    else problems.push({ server: name, error: resolved.error });
  }
  return { servers, problems };
}

/** `tools.include` (when set) lists the tools kept; `tools.exclude` then takes some away. */
export function keepsTool(server: Pick<McpServer, 'include' | 'exclude'>, tool: string): boolean {
  if (server.include && !server.include.includes(tool)) return false;
  return !server.exclude?.includes(tool);
}

const PREFIX = 'mcp__';
/** The longest tool name OpenAI-style APIs accept. */
export const MAX_TOOL_NAME = 64;

/**
 * The name the model sees. Providers accept `[A-Za-z0-9_-]` in tool names, at most 64 of them, and
 * MCP tool names may hold dots or slashes, so anything else becomes `_`, and a longer name is cut
 * and ends with a hash of the whole, so two long names stay apart. The server name is restricted.
 */
export function exposedToolName(server: string, tool: string): string {
  const name = `${PREFIX}${server}__${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  if (name.length <= MAX_TOOL_NAME) return name;
  const hash = createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_TOOL_NAME - 9)}_${hash}`;
}

export function isMcpToolName(name: string): boolean {
  return name.startsWith(PREFIX);
}
