// The MCP tools offered with one user message: every tool of the running servers, or, above
// `mcp.max_tools`, the ones the `mcp` slot chooses for this message. A slot that cannot give a
// usable answer (after one request to fix it) leaves the first `max_tools` tools in listing order,
// with a notice: the turn goes on, as skill search falls back to its prefilter order.
import type { Tool } from '../types.js';
import { askStrict, type AskSlot, type SlotText } from '../../../routing/strict-answer.js';
import type { McpManager } from './manager.js';
import { createMcpTool } from './mcp-tool.js';
import { buildMcpSelectionFix, buildMcpSelectionPrompt, MCP_SELECTION_SYSTEM, parseMcpSelection } from './select.js';

export type SlotAnswer = SlotText;

/** One call to the `mcp` slot. */
export type AskMcpSlot = AskSlot;

export type McpTurnLog = {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
};

export type McpTurnToolsDeps = {
  readonly manager: McpManager;
  readonly maxTools: number;
  readonly log: McpTurnLog;
};

export type McpTurnTools = (userText: string, ask: AskMcpSlot, notice: (text: string) => void) => Promise<readonly Tool[]>;

/** The slot's answer is a short list of names; room for max_tools long names. */
const SELECTION_MAX_TOKENS = 1500;

async function chooseNames(userText: string, tools: readonly { name: string; description: string }[], maxTools: number, ask: AskMcpSlot): Promise<{ ok: true; names: readonly string[] } | { ok: false; error: string }> {
  const known = new Set(tools.map((tool) => tool.name));
  const answer = await askStrict({
    ask: (messages) => ask(MCP_SELECTION_SYSTEM, messages, SELECTION_MAX_TOKENS),
    prompt: buildMcpSelectionPrompt(userText, tools, maxTools),
    parse: (text) => {
      const parsed = parseMcpSelection(text, known, maxTools);
      return parsed.ok ? { ok: true, value: parsed.names } : parsed;
    },
    fix: (error) => buildMcpSelectionFix(error, maxTools),
  });
  if (answer.ok) return { ok: true, names: answer.value };
  return answer.kind === 'slot_failed'
    ? { ok: false, error: `the mcp slot failed: ${answer.error}` }
    : { ok: false, error: `the mcp slot's answer was malformed twice (${answer.error})` };
}

export function createMcpTurnTools(deps: McpTurnToolsDeps): McpTurnTools {
  const call = deps.manager.callTool.bind(deps.manager);
  return async (userText, ask, notice) => {
    deps.manager.beginTurn();
    const listing = await deps.manager.listTools();
    for (const problem of listing.errors) {
      deps.log.warn({ server: problem.server, error: problem.error }, 'mcp server unavailable');
      notice(`MCP server ${problem.server} is unavailable: ${problem.error}`);
    }
    const tools = listing.tools.map((available) => createMcpTool(available, call));
    if (tools.length <= deps.maxTools) return tools;

    const summaries = tools.map((tool) => ({ name: tool.definition.name, description: tool.definition.description }));
    const chosen = await chooseNames(userText, summaries, deps.maxTools, ask);
    if (!chosen.ok) {
      const kept = tools.slice(0, deps.maxTools);
      deps.log.warn({ available: tools.length, offered: kept.map((t) => t.definition.name), error: chosen.error }, 'mcp tool choice failed');
      notice(`${chosen.error}; offering the first ${deps.maxTools} of ${tools.length} MCP tools`);
      return kept;
    }
    const names = new Set(chosen.names);
    deps.log.info({ available: tools.length, chosen: chosen.names }, 'mcp tools chosen');
    return tools.filter((tool) => names.has(tool.definition.name));
  };
}
