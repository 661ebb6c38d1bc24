// `iris mcp add`'s options as a `mcp_servers.<name>` entry, and a server as the rows `iris mcp
// list` prints. Pure. Header and env values are never shown: they often hold tokens.
import { MCP_SERVER_NAME_PATTERN } from '../../../config/schema.js';
import type { McpServer } from './servers.js';

export type AddOptions = {
  readonly command: readonly string[];
  readonly url?: string;
  readonly header?: readonly string[];
  readonly env?: readonly string[];
  readonly cwd?: string;
  readonly include?: string;
  readonly exclude?: string;
  readonly disabled?: boolean;
};

export type EntryResult = { readonly ok: true; readonly entry: Record<string, unknown> } | { readonly ok: false; readonly error: string };

const list = (text: string | undefined) => (text ?? '').split(',').map((item) => item.trim()).filter(Boolean);

function pairs(flag: string, items: readonly string[] | undefined, separator: string): { ok: true; map: Record<string, string> } | { ok: false; error: string } {
  const map: Record<string, string> = {};
  for (const item of items ?? []) {
    const at = item.indexOf(separator);
    if (at <= 0) return { ok: false, error: `${flag} takes NAME${separator}VALUE (got "${item}")` };
    map[item.slice(0, at).trim()] = item.slice(at + 1).trim();
  }
  return { ok: true, map };
}

export function buildServerEntry(name: string, options: AddOptions): EntryResult {
  if (!MCP_SERVER_NAME_PATTERN.test(name)) return { ok: false, error: `"${name}" is not a valid server name: use letters, digits, _ and - (at most 64)` };
  const [command, ...args] = options.command;
  if ((command === undefined) === (options.url === undefined)) {
    return { ok: false, error: 'give either a command (stdio: iris mcp add <name> -- <command> [args…]) or --url (streamable HTTP)' };
  }
  const entry: Record<string, unknown> = {};
  if (command !== undefined) {
    if (options.header?.length) return { ok: false, error: '--header is for --url servers' };
    const env = pairs('--env', options.env, '=');
    if (!env.ok) return env;
    entry.command = command;
    if (args.length) entry.args = args;
    if (Object.keys(env.map).length) entry.env = env.map;
    if (options.cwd) entry.cwd = options.cwd;
  } else {
    if (options.env?.length || options.cwd) return { ok: false, error: '--env and --cwd are for command (stdio) servers' };
    let url: URL;
    try {
      url = new URL(options.url ?? '');
    } catch {
      return { ok: false, error: `--url "${options.url}" is not a URL` };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, error: `--url must be http(s) (got ${url.protocol})` };
    const headers = pairs('--header', options.header, ':');
    if (!headers.ok) return headers;
    entry.url = url.href;
    if (Object.keys(headers.map).length) entry.headers = headers.map;
  }
  if (options.disabled) entry.enabled = false;
  const include = list(options.include);
  const exclude = list(options.exclude);
  if (include.length || exclude.length) entry.tools = { ...(include.length ? { include } : {}), ...(exclude.length ? { exclude } : {}) };
  return { ok: true, entry };
}

export type ServerView = {
  readonly name: string;
  readonly enabled: boolean;
  readonly transport: 'stdio' | 'http';
  /** The command line or the URL. */
  readonly target: string;
  readonly env_names: readonly string[];
  readonly header_names: readonly string[];
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
};

export function serverView(server: McpServer): ServerView {
  const t = server.transport;
  return {
    name: server.name,
    enabled: server.enabled,
    transport: t.kind,
    target: t.kind === 'stdio' ? [t.command, ...t.args].join(' ') : t.url,
    env_names: t.kind === 'stdio' ? Object.keys(t.env ?? {}) : [],
    header_names: t.kind === 'http' ? Object.keys(t.headers) : [],
    ...(server.include ? { include: server.include } : {}),
    ...(server.exclude ? { exclude: server.exclude } : {}),
  };
}
