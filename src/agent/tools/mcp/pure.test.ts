// The pure parts of MCP: server resolution, tool names, result mapping, the slot's answer.
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../../config/validate.js';
import { buildServerEntry, serverView } from './server-entry.js';
import { exposedToolName, keepsTool, resolveMcpServers } from './servers.js';
import { buildMcpSelectionPrompt, parseMcpSelection } from './select.js';
import { MCP_RESULT_MAX_CHARS, mapMcpResult } from './tool-result.js';

describe('resolveMcpServers', () => {
  it('reads command as stdio and url as HTTP, with the defaults, and reports entries with both or neither', () => {
    const { config } = validateConfig({
      mcp_servers: {
        files: { command: 'npx', args: ['-y', 'server-files'], env: { A: '1' } },
        web: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' }, enabled: false, tools: { include: ['search'] } },
        both: { command: 'x', url: 'https://a.example/' },
        neither: { enabled: true },
      },
    });
    expect(config.mcp).toEqual({ timeout: 60, max_tools: 24 });
    const { servers, problems } = resolveMcpServers(config);
    expect(servers).toEqual([
      { name: 'files', enabled: true, transport: { kind: 'stdio', command: 'npx', args: ['-y', 'server-files'], env: { A: '1' } } },
      { name: 'web', enabled: false, transport: { kind: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' } }, include: ['search'] },
    ]);
    expect(problems).toEqual([
      { server: 'both', error: 'has both command (stdio) and url (HTTP); keep one' },
      { server: 'neither', error: 'needs command (stdio) or url (streamable HTTP)' },
    ]);
  });

  it('drops a server whose name cannot be part of a tool name', () => {
    const validated = validateConfig({ mcp_servers: { 'bad name': { command: 'x' }, good: { command: 'y' } } });
    expect(Object.keys(validated.config.mcp_servers)).toEqual(['good']);
    expect(validated.problems.map((p) => p.path)).toEqual(['mcp_servers.bad name']);
  });
});

describe('tool names and filters', () => {
  it.each([
    [{}, 'a', true],
    [{ include: ['a'] }, 'a', true],
    [{ include: ['a'] }, 'b', false],
    [{ exclude: ['a'] }, 'a', false],
    [{ include: ['a', 'b'], exclude: ['b'] }, 'b', false],
  ])('%j keeps %s: %s', (filter, tool, kept) => {
    expect(keepsTool(filter, tool)).toBe(kept);
  });

  it('names a tool mcp__<server>__<tool> with only the characters providers accept', () => {
    expect(exposedToolName('gh', 'create_issue')).toBe('mcp__gh__create_issue');
    expect(exposedToolName('fs', 'files.read/all')).toBe('mcp__fs__files_read_all');
  });

  it('cuts a name longer than 64 characters and tells two long names apart by a hash', () => {
    const one = exposedToolName('server', 'x'.repeat(80));
    const two = exposedToolName('server', `${'x'.repeat(79)}y`);
    expect(one).toHaveLength(64);
    expect(one).toMatch(/^mcp__server__x+_[0-9a-f]{8}$/);
    expect(two).not.toBe(one);
  });
});

describe('mapMcpResult', () => {
  it('joins text parts, notes an image, gives a resource its text, and keeps isError', () => {
    expect(
      mapMcpResult({
        content: [
          { type: 'text', text: 'one' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'file:///a.txt', text: 'resource text' } },
          { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'AAAA', mimeType: 'application/octet-stream' } },
          { type: 'resource_link', uri: 'file:///c', name: 'c' },
        ],
        isError: true,
      }),
    ).toEqual({
      ok: false,
      content: [
        'one',
        '[image (image/png, 3 bytes) returned by the tool; not shown as text]',
        'resource text',
        '[binary resource file:///b.bin (application/octet-stream, 3 bytes); not shown]',
        '[resource link: file:///c (c)]',
      ].join('\n'),
    });
  });

  it('falls back to structured content, then to "(no output)", and caps the size', () => {
    expect(mapMcpResult({ content: [], structuredContent: { a: 1 } })).toEqual({ ok: true, content: '{"a":1}' });
    expect(mapMcpResult({})).toEqual({ ok: true, content: '(no output)' });
    const long = mapMcpResult({ content: [{ type: 'text', text: 'x'.repeat(MCP_RESULT_MAX_CHARS + 10) }] });
    expect(long.content.endsWith(`[output cut at ${MCP_RESULT_MAX_CHARS} characters of ${MCP_RESULT_MAX_CHARS + 10}]`)).toBe(true);
  });
});

describe('parseMcpSelection', () => {
  const known = new Set(['mcp__a__x', 'mcp__a__y', 'mcp__b__z']);
  it.each([
    ['["mcp__a__x","mcp__b__z"]', { ok: true, names: ['mcp__a__x', 'mcp__b__z'] }],
    [' [] ', { ok: true, names: [] }],
    ['["mcp__a__x","mcp__a__x"]', { ok: true, names: ['mcp__a__x'] }],
    ['Sure: ["mcp__a__x"]', { ok: false, error: 'it is not JSON' }],
    ['```json\n["mcp__a__x"]\n```', { ok: false, error: 'it is not JSON' }],
    ['{"tools":["mcp__a__x"]}', { ok: false, error: 'it is not a JSON array' }],
    ['["mcp__a__x", 3]', { ok: false, error: 'not every entry is a string' }],
    ['["x"]', { ok: false, error: 'unknown tool name "x"' }],
    ['["mcp__a__x","mcp__a__y","mcp__b__z"]', { ok: false, error: '3 tools, more than 2' }],
  ])('%s', (text, expected) => {
    expect(parseMcpSelection(text, known, 2)).toEqual(expected);
  });

  it('shows the slot every name with its description and the message last', () => {
    const prompt = buildMcpSelectionPrompt('do it', [{ name: 'mcp__a__x', description: 'Does\n  x.' }], 5);
    expect(prompt).toBe('Choose at most 5 of these tools, the ones most likely to help with the user\'s message. An empty array [] is fine when none helps.\n\nTools:\n- mcp__a__x: Does x.\n\nUser message:\ndo it');
  });
});

describe('serverView', () => {
  it('shows the command line or URL and only the names of env and headers, never their values', () => {
    expect(serverView({ name: 'fs', enabled: true, transport: { kind: 'stdio', command: 'npx', args: ['-y', 'srv'], env: { TOKEN: 'secret-value' } }, include: ['read'] } as never)).toEqual({
      name: 'fs',
      enabled: true,
      transport: 'stdio',
      target: 'npx -y srv',
      env_names: ['TOKEN'],
      header_names: [],
      include: ['read'],
    });
    expect(serverView({ name: 'web', enabled: false, transport: { kind: 'http', url: 'https://x.example/mcp', headers: { Authorization: 'Bearer t' } }, exclude: ['rm'] } as never)).toEqual({
      name: 'web',
      enabled: false,
      transport: 'http',
      target: 'https://x.example/mcp',
      env_names: [],
      header_names: ['Authorization'],
      exclude: ['rm'],
    });
  });
});

describe('buildServerEntry', () => {
  it('builds a stdio entry and an HTTP entry', () => {
    expect(buildServerEntry('fs', { command: ['npx', '-y', 'srv'], env: ['A=1'], cwd: '/tmp', include: 'a, b' })).toEqual({
      ok: true,
      entry: { command: 'npx', args: ['-y', 'srv'], env: { A: '1' }, cwd: '/tmp', tools: { include: ['a', 'b'] } },
    });
    expect(buildServerEntry('web', { command: [], url: 'https://x.example/mcp', header: ['Authorization: Bearer t'], disabled: true })).toEqual({
      ok: true,
      entry: { url: 'https://x.example/mcp', headers: { Authorization: 'Bearer t' }, enabled: false },
    });
  });

  it.each([
    ['bad name', { command: ['x'] }, '"bad name" is not a valid server name: use letters, digits, _ and - (at most 64)'],
    ['a', { command: [] }, 'give either a command (stdio: iris mcp add <name> -- <command> [args…]) or --url (streamable HTTP)'],
    ['a', { command: ['x'], url: 'https://x.example' }, 'give either a command (stdio: iris mcp add <name> -- <command> [args…]) or --url (streamable HTTP)'],
    ['a', { command: ['x'], env: ['NOVALUE'] }, '--env takes NAME=VALUE (got "NOVALUE")'],
    ['a', { command: [], url: 'ftp://x.example' }, '--url must be http(s) (got ftp:)'],
    ['a', { command: ['x'], header: ['A: b'] }, '--header is for --url servers'],
    ['a', { command: [], url: 'https://x.example', env: ['A=1'] }, '--env and --cwd are for command (stdio) servers'],
    ['a', { command: [], url: 'https://x.example', cwd: '/tmp' }, '--env and --cwd are for command (stdio) servers'],
    ['a', { command: [], url: 'not a url' }, '--url "not a url" is not a URL'],
    ['a', { command: [], url: 'https://x.example', header: ['NoColon'] }, '--header takes NAME:VALUE (got "NoColon")'],
    ['a', { command: ['x'], env: ['=v'] }, '--env takes NAME=VALUE (got "=v")'],
  ])('refuses %s %j', (name, options, error) => {
    expect(buildServerEntry(name, options)).toEqual({ ok: false, error });
  });
});
