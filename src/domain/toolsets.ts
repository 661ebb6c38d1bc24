// The names of the toolsets a run can be given (config `agent.toolsets`, a webhook route's
// `toolsets`). Vocabulary only: what each holds is src/agent/tools/toolsets.ts.

export const TOOLSET_NAMES = ['terminal', 'files', 'files-readonly', 'skills', 'mcp', 'service-webhook', 'default'] as const;

export type ToolsetName = (typeof TOOLSET_NAMES)[number];

/** What a webhook run gets when its route names no toolsets. */
export const WEBHOOK_TOOLSETS: readonly ToolsetName[] = ['service-webhook'];

/** Toolsets that bring the tools of the enabled MCP servers (DECISIONS: offered wherever servers exist, unless narrowed). */
const WITH_MCP: ReadonlySet<string> = new Set<ToolsetName>(['mcp', 'service-webhook', 'default']);

export function offersMcp(toolsets: readonly string[]): boolean {
  return toolsets.some((name) => WITH_MCP.has(name));
}
