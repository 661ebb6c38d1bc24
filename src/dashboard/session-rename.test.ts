import { describe, expect, it } from 'vitest';
import { parseRename } from './session-rename.js';

describe('parseRename', () => {
  it('cleans the title as iris sessions rename does', () => {
    expect(parseRename({ title: '  Fix\n the   parser \t' })).toEqual({ ok: true, title: 'Fix the parser' });
  });

  it.each([
    [null, 'send a JSON object: {"title": "<new title>"}'],
    [['t'], 'send a JSON object: {"title": "<new title>"}'],
    [{}, 'title must be a string'],
    [{ title: 3 }, 'title must be a string'],
    [{ title: ' \n ' }, 'the new title is empty'],
    [{ title: 'x'.repeat(201) }, 'the title is longer than 200 characters'],
    [{ title: 'ok', status: 'idle' }, 'unknown field "status" (only title)'],
  ])('%j → %s', (body, error) => {
    expect(parseRename(body)).toEqual({ ok: false, error });
  });
});
