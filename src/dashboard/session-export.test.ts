import { describe, expect, it } from 'vitest';
import { exportFile, exportFilename } from './session-export.js';

const SESSION = { id: 's_abc123', source: 'cli', title: 'T', provider: 'openai', model: 'gpt-5', status: 'idle' as const, createdAt: 0, updatedAt: 0, messageCount: 1 };

describe('exportFilename', () => {
  it('keeps letters, digits, _ and -; anything else (quotes, slashes, newlines) becomes _', () => {
    expect(exportFilename('s_abc123', 'md')).toBe('iris-session-s_abc123.md');
    expect(exportFilename('a"b/c\r\nd', 'json')).toBe('iris-session-a_b_c__d.json');
    expect(exportFilename('', 'md')).toBe('iris-session-session.md');
    expect(exportFilename('x'.repeat(100), 'md')).toBe(`iris-session-${'x'.repeat(80)}.md`);
  });
});

describe('exportFile', () => {
  it('json is printJson of the CLI export: two-space indent, final newline', () => {
    const file = exportFile(SESSION, [{ role: 'user', content: 'hi' }], 'json');
    expect(file.contentType).toBe('application/json; charset=utf-8');
    expect(file.body.endsWith('}\n')).toBe(true);
    expect(JSON.parse(file.body)).toEqual({
      session: { id: 's_abc123', title: 'T', source: 'cli', provider: 'openai', model: 'gpt-5', messages: 1, status: 'idle', created_at: '1970-01-01T00:00:00.000Z', updated_at: '1970-01-01T00:00:00.000Z' },
      messages: [{ role: 'user', content: 'hi' }],
    });
  });

  it('md is the Markdown transcript', () => {
    const file = exportFile(SESSION, [{ role: 'user', content: 'hi' }], 'md');
    expect(file.contentType).toBe('text/markdown; charset=utf-8');
    expect(file.body.startsWith('# T\n\n- id: `s_abc123`\n')).toBe(true);
    expect(file.body.endsWith('## User\n\nhi\n')).toBe(true);
  });
});
