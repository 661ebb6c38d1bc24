// `npm run build` swaps dist/ in with one rename (scripts/dist-swap.mjs): a command run during a
// build uses the old build or the new one, never none; an unchanged tree skips the build.
import { execFile } from 'node:child_process';
import { lstat, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildsToRemove } from '../../scripts/dist-swap.mjs';
import { cleanEnv, makeTempDir, removeDir, REPO_ROOT, runIris } from '../helpers/iris.js';

type RunBuild = { code: number; stdout: string; stderr: string };
function runBuild(args: readonly string[]): Promise<RunBuild> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['scripts/build.mjs', ...args], { cwd: REPO_ROOT, env: cleanEnv(), timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir();
});
afterAll(() => removeDir(dir));

describe('npm run build', () => {
  it('never leaves a moment without a build: iris status in a loop during a build all succeed', async () => {
    let building = true;
    const build = runBuild(['--force']).finally(() => (building = false));
    const failures: string[] = [];
    let runs = 0;
    while (building) {
      const result = await runIris(['status'], { home: join(dir, 'home') });
      runs++;
      if (result.code !== 0) failures.push(result.stderr);
    }
    expect(await build).toMatchObject({ code: 0 });
    expect(failures).toEqual([]);
    expect(runs).toBeGreaterThan(3);
    expect((await lstat(join(REPO_ROOT, 'dist'))).isSymbolicLink()).toBe(true);
    expect(await readlink(join(REPO_ROOT, 'dist'))).toMatch(/^\.builds\/[0-9a-z]+-\d+\/dist$/);
  }, 180_000);

  it('skips the build when the sources have not changed', async () => {
    const before = await readlink(join(REPO_ROOT, 'dist'));
    expect(await runBuild([])).toEqual({ code: 0, stdout: 'dist/ is up to date (the sources have not changed; --force builds anyway)\n', stderr: '' });
    expect(await readlink(join(REPO_ROOT, 'dist'))).toBe(before);
  }, 60_000);
});

describe('buildsToRemove', () => {
  const alive = (pid: number) => pid === 7;
  it('keeps the current and the previous build and the partial build of a live builder', () => {
    const names = ['a-1', 'b-2', 'c-3', 'd-7.partial', 'e-8.partial', 'legacy-b-2'];
    expect(buildsToRemove(names, 'c-3', 'b-2', alive)).toEqual(['a-1', 'e-8.partial', 'legacy-b-2']);
  });
});
