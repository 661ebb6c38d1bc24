// The main model's system prompt.
import type { ToolDefinition } from '../providers/wire/types.js';

export function systemPrompt(workspaceRoot: string, tools: readonly ToolDefinition[], instructions?: string): string {
  const toolLine = tools.length
    ? `You can use these tools: ${tools.map((t) => t.name).join(', ')}. Use them to look before you answer, and say what you changed.`
    : 'You have no tools in this session.';
  return [
    'You are Iris, an agent that helps developers with their code and their machines.',
    `Your working folder is ${workspaceRoot}; file paths are relative to it.`,
    toolLine,
    'Be direct and brief. When a command or a change is risky, say so before doing it.',
    ...(instructions ? ['', instructions] : []),
  ].join('\n');
}
