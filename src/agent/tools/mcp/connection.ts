// One live connection to one MCP server, through the official SDK: a child process over stdio or a
// streamable-HTTP endpoint. The SDK is imported when a connection is made, never at start-up: most
// commands never talk to an MCP server, and it costs tens of milliseconds to load.
import { errorMessage } from '../../../domain/error-message.js';
import { redactText } from '../../../log/redact.js';
import { VERSION } from '../../../version.js';
import { MAX_LISTING_PAGES, readAllPages } from './list-pages.js';
import type { McpServer } from './servers.js';
import type { McpCallAnswer } from './tool-result.js';

export type McpToolInfo = {
  /** The server's own name for the tool. */
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  /** The server says the tool changes nothing (`annotations.readOnlyHint: true`). */
  readonly readOnly: boolean;
};

export type McpCallOutcome =
  | { readonly kind: 'answer'; readonly answer: McpCallAnswer }
  /** The server went away during the call (a crash, a closed connection). */
  | { readonly kind: 'died'; readonly error: string }
  /** The server is there but the call failed (timeout, protocol error, cancelled). */
  | { readonly kind: 'failed'; readonly error: string };

export type McpConnection = {
  readonly tools: readonly McpToolInfo[];
  alive(): boolean;
  call(tool: string, args: Readonly<Record<string, unknown>>, timeoutMs: number, signal?: AbortSignal): Promise<McpCallOutcome>;
  close(): Promise<void>;
};

export type McpConnectResult = { readonly ok: true; readonly connection: McpConnection } | { readonly ok: false; readonly error: string };

/** The last bit of a stdio server's stderr, kept for the error message when it dies. */
const STDERR_TAIL_CHARS = 2000;

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function readInfo(tool: { name: string; description?: string | undefined; inputSchema: Record<string, unknown>; annotations?: { readOnlyHint?: boolean | undefined } | undefined }): McpToolInfo {
  // `$schema` is noise to a model, and a few providers reject unknown top-level keywords.
  const schema = { ...tool.inputSchema };
  delete schema.$schema;
  return { name: tool.name, description: tool.description ?? '', inputSchema: schema, readOnly: tool.annotations?.readOnlyHint === true };
}

export async function connectMcpServer(server: McpServer, timeoutMs: number): Promise<McpConnectResult> {
  const [{ Client }, { StdioClientTransport }, { StreamableHTTPClientTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ]);
  let stderrTail = '';
  let closed = false;
  const spec = server.transport;
  let transport: InstanceType<typeof StdioClientTransport> | InstanceType<typeof StreamableHTTPClientTransport>;
  if (spec.kind === 'stdio') {
    // The SDK gives the child a small safe environment (PATH, HOME, …) plus `env`: never our secrets.
    const stdio = new StdioClientTransport({
      command: spec.command,
      args: [...spec.args],
      ...(spec.env ? { env: { ...spec.env } } : {}),
      ...(spec.cwd ? { cwd: spec.cwd } : {}),
      stderr: 'pipe',
    });
    stdio.stderr?.on('data', (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    transport = stdio;
  } else {
    // The owner named the server, so its address is not guarded; where it redirects is not the
    // owner's word. Same-origin (the SDK's default, pinned here) follows a redirect only within
    // the server's own scheme, host and port, and fails the request on any other.
    transport = new StreamableHTTPClientTransport(new URL(spec.url), { requestInit: { headers: { ...spec.headers } }, redirectPolicy: 'same-origin' });
  }
  const client = new Client({ name: 'iris', version: VERSION }, { capabilities: {} });
  client.onclose = () => {
    closed = true;
  };
  // The server's stderr reaches the model and the log: credential-shaped text is taken out first.
  const withStderr = (message: string) => (stderrTail.trim() ? `${message}; stderr: ${redactText(stderrTail.trim().split('\n').slice(-5).join(' | '))}` : message);

  let tools: McpToolInfo[];
  try {
    await withTimeout(client.connect(transport), timeoutMs, 'starting the server');
    const listing = await readAllPages(
      async (cursor, timeLeftMs) => {
        const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: timeLeftMs });
        return { items: page.tools.map(readInfo), nextCursor: page.nextCursor };
      },
      { maxPages: MAX_LISTING_PAGES, totalMs: timeoutMs },
    );
    if (!listing.ok) throw new Error(listing.error);
    tools = listing.items;
  } catch (err) {
    await client.close().catch(() => undefined);
    return { ok: false, error: withStderr(errorMessage(err)) };
  }

  return {
    ok: true,
    connection: {
      tools,
      alive: () => !closed,
      async call(tool, args, callTimeoutMs, signal) {
        if (closed) return { kind: 'died', error: withStderr('the server is not running') };
        try {
          const answer = await client.callTool({ name: tool, arguments: { ...args } }, undefined, { timeout: callTimeoutMs, ...(signal ? { signal } : {}) });
          return { kind: 'answer', answer: answer as McpCallAnswer };
        } catch (err) {
          // Give a crash a moment to be noticed: the close event may trail the failed request.
          if (!closed) await new Promise((resolve) => setTimeout(resolve, 50));
          return closed ? { kind: 'died', error: withStderr(errorMessage(err)) } : { kind: 'failed', error: errorMessage(err) };
        }
      },
      async close() {
        closed = true;
        await client.close().catch(() => undefined);
      },
    },
  };
}
