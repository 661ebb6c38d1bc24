// Choosing the MCP tools for one user message when there are more than `mcp.max_tools`: the `mcp`
// slot reads the message and the tools' names and descriptions and answers a JSON array of names.
// The answer is parsed strictly (every name exactly as shown, no more than the limit), and one
// malformed answer earns one request to fix it. Pure: the slot call is the caller's.

export type ToolSummary = { readonly name: string; readonly description: string };

export type SelectionParse = { readonly ok: true; readonly names: readonly string[] } | { readonly ok: false; readonly error: string };

export const MCP_SELECTION_SYSTEM =
  'You choose which tools an assistant will be given for the next user message. Answer with a JSON ' +
  'array of tool names, exactly as they are written in the list, and nothing else: no prose, no code fence.';

/** Descriptions are cut: the slot needs what a tool is for, not its manual. */
const DESCRIPTION_CHARS = 300;

export function buildMcpSelectionPrompt(userText: string, tools: readonly ToolSummary[], maxTools: number): string {
  const lines = tools.map((tool) => `- ${tool.name}: ${tool.description.replace(/\s+/g, ' ').slice(0, DESCRIPTION_CHARS)}`);
  return [
    `Choose at most ${maxTools} of these tools, the ones most likely to help with the user's message. An empty array [] is fine when none helps.`,
    '',
    'Tools:',
    ...lines,
    '',
    'User message:',
    userText,
  ].join('\n');
}

export function buildMcpSelectionFix(error: string, maxTools: number): string {
  return `That answer could not be used: ${error}. Answer again with only a JSON array of at most ${maxTools} tool names, exactly as written in the list.`;
}

export function parseMcpSelection(text: string, known: ReadonlySet<string>, maxTools: number): SelectionParse {
  let value: unknown;
  try {
    value = JSON.parse(text.trim());
  } catch {
    return { ok: false, error: 'it is not JSON' };
  }
  if (!Array.isArray(value)) return { ok: false, error: 'it is not a JSON array' };
  if (!value.every((item): item is string => typeof item === 'string')) return { ok: false, error: 'not every entry is a string' };
  const unknown = value.filter((name) => !known.has(name));
  if (unknown.length > 0) return { ok: false, error: `unknown tool name${unknown.length === 1 ? '' : 's'} ${unknown.slice(0, 5).map((n) => JSON.stringify(n)).join(', ')}` };
  const names = [...new Set(value)];
  if (names.length > maxTools) return { ok: false, error: `${names.length} tools, more than ${maxTools}` };
  return { ok: true, names };
}
