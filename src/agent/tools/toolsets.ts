// The named toolsets a run is given: interactive chat gets everything, a webhook run gets the
// terminal (behind approval) and the read-only file tools, since an event from outside should not
// be able to rewrite the workspace without a command the approval policy saw.
import { listFilesTool } from './files/list-files.js';
import { readFileTool } from './files/read-file.js';
import { searchFilesTool } from './files/search-files.js';
import { writeFileTool } from './files/write-file.js';
import { kanbanTools } from './kanban/kanban-tools.js';
import { listSkillsTool, loadSkillTool } from './skills/skill-tools.js';
import { createTerminalTool, type TerminalOptions } from './terminal/terminal.js';
import type { Tool, Toolset } from './types.js';
import { createVisionAnalyzeTool, type VisionToolOptions } from './vision/vision-analyze.js';
import { createWebExtractTool, type WebExtractOptions } from './web/web-extract.js';

import { TOOLSET_NAMES, type ToolsetName } from '../../domain/toolsets.js';

export { TOOLSET_NAMES, type ToolsetName };

export type ToolsetOptions = {
  readonly terminal?: TerminalOptions;
  /** How vision_analyze asks the vision slot; without it the tool answers that the slot is not wired. */
  readonly vision?: VisionToolOptions;
  readonly web?: WebExtractOptions;
};

export type Toolsets = Readonly<Record<ToolsetName, Toolset>>;

export function createToolsets(options: ToolsetOptions = {}): Toolsets {
  const terminal = [createTerminalTool(options.terminal)];
  const filesReadOnly = [readFileTool, listFilesTool, searchFilesTool];
  const files = [readFileTool, writeFileTool, listFilesTool, searchFilesTool];
  const skills = [listSkillsTool, loadSkillTool];
  const vision = [createVisionAnalyzeTool(options.vision)];
  const web = [createWebExtractTool(options.web)];
  // The board only: no workspace change, so webhook runs may file and move tasks.
  const kanban = [...kanbanTools];
  const table: Record<ToolsetName, readonly Tool[]> = {
    terminal,
    files,
    'files-readonly': filesReadOnly,
    skills,
    // The MCP servers' tools come per turn (tools/mcp/), not from this table: `mcp` only says the
    // run wants them (see offersMcp).
    mcp: [],
    'service-webhook': [...terminal, ...filesReadOnly, ...skills, ...vision, ...web, ...kanban],
    default: [...terminal, ...files, ...skills, ...vision, ...web, ...kanban],
  };
  return Object.freeze(
    Object.fromEntries(TOOLSET_NAMES.map((name) => [name, Object.freeze({ name, tools: Object.freeze(table[name]) })])) as Record<
      ToolsetName,
      Toolset
    >,
  );
}

export type ToolSelection =
  | { readonly ok: true; readonly tools: readonly Tool[] }
  | { readonly ok: false; readonly error: string };

/** The tools of the named toolsets, each once, in order; an unknown name is an error, not a no-op. */
export function selectTools(names: readonly string[], toolsets: Toolsets = createToolsets()): ToolSelection {
  const unknown = names.filter((name) => !Object.hasOwn(toolsets, name));
  if (unknown.length > 0) {
    return {
      ok: false,
      error: `unknown toolset${unknown.length === 1 ? '' : 's'} ${unknown.map((n) => `"${n}"`).join(', ')} (known: ${TOOLSET_NAMES.join(', ')})`,
    };
  }
  const byName = new Map<string, Tool>();
  for (const name of names) {
    for (const tool of toolsets[name as ToolsetName].tools) {
      if (!byName.has(tool.definition.name)) byName.set(tool.definition.name, tool);
    }
  }
  return { ok: true, tools: [...byName.values()] };
}
