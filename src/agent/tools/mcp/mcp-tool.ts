// An MCP server's tool as an Iris tool. The approval policy gates it like the terminal: the tool
// name and its arguments are what the policy (and the user) see. A tool whose server declares it
// read-only (`annotations.readOnlyHint: true`) needs no approval, as the read-only file tools.
import type { Tool, ToolContext, ToolResult } from '../types.js';
import type { McpAvailableTool } from './manager.js';
import type { McpToolText } from './tool-result.js';

export type McpCall = (server: string, tool: string, args: Readonly<Record<string, unknown>>, signal?: AbortSignal) => Promise<McpToolText>;

/** What the approval policy reads as "the command": the name the model used and its arguments. */
export function approvalText(exposedName: string, args: Readonly<Record<string, unknown>>): string {
  return `${exposedName} ${JSON.stringify(args)}`;
}

export function createMcpTool(available: McpAvailableTool, call: McpCall): Tool {
  const { server, exposedName, info } = available;
  const description = info.description || `The ${info.name} tool of the MCP server ${server}.`;
  return Object.freeze({
    definition: Object.freeze({ name: exposedName, description, parameters: info.inputSchema }),
    readOnly: info.readOnly,
    async run(args: Readonly<Record<string, unknown>>, context: ToolContext): Promise<ToolResult> {
      if (!info.readOnly) {
        const decision = await context.approve({ command: approvalText(exposedName, args), cwd: context.workspaceRoot });
        if (!decision.approved) return { ok: false, content: `tool not run: ${decision.reason}` };
      }
      return call(server, info.name, args, context.signal);
    },
  });
}
