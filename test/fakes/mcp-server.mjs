#!/usr/bin/env node
// A real MCP server, written with the official SDK, for tests. Tools:
//   echo {text}         → "echo: <text>" (not read-only: needs approval)
//   peek {}             → "peeked" (annotations.readOnlyHint: true)
//   picture {}          → a text part and an image part
//   crash {}            → the process exits at once (a server that dies mid-call)
//   tool_1 … tool_N     → "tool_<i> ran" (N = MCP_FAKE_TOOLS, default 0)
// Every call is appended as a JSON line to MCP_FAKE_CALLS when set, so tests can see what ran.
// Transport: stdio by default; `--http` serves streamable HTTP on 127.0.0.1 (port 0) and prints
// `listening <url>` on stdout. MCP_FAKE_FAIL_START=1 exits before speaking (a broken server).
// MCP_FAKE_ENDLESS_PAGES=1 answers every tools/list with one tool and a nextCursor (a server whose
// listing never ends).
import { Buffer } from 'node:buffer';
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

if (process.env.MCP_FAKE_FAIL_START === '1') {
  process.stderr.write('fake mcp server: refusing to start\n');
  process.exit(3);
}

const count = Number(process.env.MCP_FAKE_TOOLS ?? '0');
const record = (tool, args) => {
  if (process.env.MCP_FAKE_CALLS) appendFileSync(process.env.MCP_FAKE_CALLS, `${JSON.stringify({ tool, args, pid: process.pid })}\n`);
};
const text = (t) => ({ content: [{ type: 'text', text: t }] });

function buildServer() {
  const server = new McpServer({ name: 'fake-mcp', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echo the text back.', inputSchema: { text: z.string().describe('What to echo') } }, async ({ text: t }) => {
    record('echo', { text: t });
    return text(`echo: ${t}`);
  });
  server.registerTool('peek', { description: 'Look without changing anything.', inputSchema: {}, annotations: { readOnlyHint: true } }, async () => {
    record('peek', {});
    return text('peeked');
  });
  server.registerTool('picture', { description: 'Return a picture.', inputSchema: {} }, async () => {
    record('picture', {});
    return { content: [{ type: 'text', text: 'a red dot' }, { type: 'image', data: Buffer.from('not really a png').toString('base64'), mimeType: 'image/png' }] };
  });
  server.registerTool('crash', { description: 'Crash the server.', inputSchema: {} }, async () => {
    record('crash', {});
    process.stderr.write('fake mcp server: crashing on purpose\n');
    process.exit(7);
  });
  for (let i = 1; i <= count; i++) {
    server.registerTool(`tool_${i}`, { description: `Numbered tool ${i}.`, inputSchema: {} }, async () => {
      record(`tool_${i}`, {});
      return text(`tool_${i} ran`);
    });
  }
  if (process.env.MCP_FAKE_ENDLESS_PAGES === '1') {
    // Replaces the SDK's own tools/list handler (registered with the first tool above).
    server.server.setRequestHandler(ListToolsRequestSchema, async (request) => {
      const page = Number(request.params?.cursor ?? '0');
      return { tools: [{ name: `page_${page}`, description: `Tool on page ${page}.`, inputSchema: { type: 'object', properties: {} } }], nextCursor: String(page + 1) };
    });
  }
  return server;
}

if (process.argv.includes('--http')) {
  // Stateless streamable HTTP: a fresh server and transport for every request.
  const http = createServer(async (req, res) => {
    const server = buildServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  http.listen(0, '127.0.0.1', () => {
    process.stdout.write(`listening http://127.0.0.1:${http.address().port}/mcp\n`);
  });
} else {
  await buildServer().connect(new StdioServerTransport());
}
