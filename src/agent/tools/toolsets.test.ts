import { describe, expect, it } from 'vitest';
import { createToolsets, selectTools, TOOLSET_NAMES } from './toolsets.js';

const toolsets = createToolsets();
const names = (name: (typeof TOOLSET_NAMES)[number]) => toolsets[name].tools.map((t) => t.definition.name);

describe('createToolsets', () => {
  it('groups the tools into the named toolsets', () => {
    expect(Object.keys(toolsets)).toEqual([...TOOLSET_NAMES]);
    expect(names('terminal')).toEqual(['run_command']);
    expect(names('files')).toEqual(['read_file', 'write_file', 'list_files', 'search_files']);
    expect(names('files-readonly')).toEqual(['read_file', 'list_files', 'search_files']);
    expect(names('skills')).toEqual(['list_skills', 'load_skill']);
    expect(names('service-webhook')).toEqual(['run_command', 'read_file', 'list_files', 'search_files', 'list_skills', 'load_skill', 'vision_analyze', 'web_extract', 'kanban_add', 'kanban_list', 'kanban_update']);
    expect(names('default')).toEqual([
      'run_command',
      'read_file',
      'write_file',
      'list_files',
      'search_files',
      'list_skills',
      'load_skill',
      'vision_analyze',
      'web_extract',
      'kanban_add',
      'kanban_list',
      'kanban_update',
    ]);
    for (const name of TOOLSET_NAMES) expect(toolsets[name].name).toBe(name);
  });

  it('gives read-only toolsets only read-only tools, and webhooks nothing that writes besides the terminal and the board', () => {
    expect(toolsets['files-readonly'].tools.every((t) => t.readOnly)).toBe(true);
    expect(toolsets.skills.tools.every((t) => t.readOnly)).toBe(true);
    expect(toolsets['service-webhook'].tools.filter((t) => !t.readOnly).map((t) => t.definition.name)).toEqual(['run_command', 'kanban_add', 'kanban_update']);
  });
});

describe('selectTools', () => {
  it('returns the union of the named toolsets, each tool once, in order', () => {
    const selection = selectTools(['files-readonly', 'files', 'terminal'], toolsets);
    expect(selection.ok).toBe(true);
    expect(selection).toHaveProperty(
      'tools',
      [...toolsets['files-readonly'].tools, toolsets.files.tools[1], ...toolsets.terminal.tools],
    );
  });

  it('accepts no names', () => {
    expect(selectTools([], toolsets)).toEqual({ ok: true, tools: [] });
  });

  it('rejects unknown names, listing the known ones', () => {
    expect(selectTools(['files', 'browser', 'toString'], toolsets)).toEqual({
      ok: false,
      error: 'unknown toolsets "browser", "toString" (known: terminal, files, files-readonly, skills, mcp, service-webhook, default)',
    });
    expect(selectTools(['web'])).toEqual({
      ok: false,
      error: 'unknown toolset "web" (known: terminal, files, files-readonly, skills, mcp, service-webhook, default)',
    });
  });
});
