import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { defineTool } from './define-tool.js';
import { APPROVED } from './test-support.js';
import type { ToolContext } from './types.js';

const context: ToolContext = {
  workspaceRoot: '/nonexistent',
  home: { dir: '/h', configPath: '/h/c', envPath: '/h/e', statePath: '/h/s', logsDir: '/h/l' },
  approve: async () => APPROVED,
};

const echo = defineTool({
  name: 'echo',
  description: 'Echoes.',
  readOnly: true,
  args: z.strictObject({
    text: z.string().check(z.minLength(1), z.describe('What to say.')),
    times: z.optional(z.int().check(z.minimum(1), z.maximum(3))),
    loud: z.optional(z.boolean()),
    name: z.optional(z.string().check(z.regex(/^[a-z]+$/))),
  }),
  async run({ text, times }) {
    if (text === 'throw') throw Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' });
    return { ok: true, content: text.repeat(times ?? 1) };
  },
});

describe('defineTool', () => {
  it('derives the JSON Schema from the argument schema, without $schema', () => {
    expect(echo.definition).toEqual({
      name: 'echo',
      description: 'Echoes.',
      parameters: {
        type: 'object',
        properties: {
          text: { type: 'string', minLength: 1, description: 'What to say.' },
          times: { type: 'integer', minimum: 1, maximum: 3 },
          loud: { type: 'boolean' },
          name: { type: 'string', pattern: '^[a-z]+$' },
        },
        required: ['text'],
        additionalProperties: false,
      },
    });
    expect(echo.readOnly).toBe(true);
  });

  it('runs with valid arguments', async () => {
    expect(await echo.run({ text: 'ab', times: 2 }, context)).toEqual({ ok: true, content: 'abab' });
  });

  it('describes every invalid argument for the model', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'text is required'],
      [{ text: 5 }, 'text must be a string'],
      [{ text: '' }, 'text must not be empty'],
      [{ text: 'a', times: 1.5 }, 'times must be an integer'],
      [{ text: 'a', times: 0 }, 'times must be at least 1'],
      [{ text: 'a', times: 4 }, 'times must be at most 3'],
      [{ text: 'a', loud: 'yes' }, 'loud must be a boolean'],
      [{ text: 'a', name: 'A1' }, 'name must match /^[a-z]+$/'],
      [{ text: 'a', file_path: 'x', extra: 1 }, 'unknown arguments file_path, extra'],
      [{ text: 'a', extra: 1 }, 'unknown argument extra'],
      [{ times: 9 }, 'text is required; times must be at most 3'],
    ];
    for (const [args, message] of cases) {
      expect(await echo.run(args, context)).toEqual({ ok: false, content: `invalid arguments for echo: ${message}` });
    }
  });

  it('turns a throw into a failed result', async () => {
    expect(await echo.run({ text: 'throw' }, context)).toEqual({ ok: false, content: 'echo failed: ENOENT: no such file' });
  });
});
