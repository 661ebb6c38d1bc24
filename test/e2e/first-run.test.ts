// What a new user meets first: every "not configured" message names `iris setup` first, and a
// command refused for want of a model creates nothing in the home.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

const HINT = "no main model is configured (model: ''); run iris setup (or iris model set <provider> <model>)";

let dir: string;
let home: string;
beforeEach(async () => {
  dir = await makeTempDir();
  home = join(dir, 'home');
});
afterEach(() => removeDir(dir));

/** What the home holds: nothing at all, or an empty folder. */
const contents = (path: string) => readdir(path).catch(() => []);

describe('a fresh home', () => {
  it('iris chat -q is refused with iris setup as the hint, and creates nothing (no state.db, no logs/)', async () => {
    expect(await runIris(['chat', '-q', 'hi'], { home })).toEqual({ code: 2, stdout: '', stderr: `iris: error: ${HINT}\n` });
    expect(await contents(home)).toEqual([]);
  });

  it('iris status warns with iris setup first', async () => {
    const result = await runIris(['status'], { home });
    expect(result.stderr).toBe(`iris: warning: every slot: ${HINT}\n`);
    expect(await contents(home)).toEqual([]);
  });

  it('iris auth names iris setup first', async () => {
    const result = await runIris(['auth'], { home });
    expect(result).toEqual({ code: 0, stdout: 'No provider is in use yet: run iris setup (or iris model set <provider> <model>)\n', stderr: '' });
  });
});
