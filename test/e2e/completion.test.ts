// `iris completion bash|zsh|fish`: scripts that the shell accepts, and that complete commands,
// flags, config keys, provider ids, slots, routes and platforms (bash driven for real).
import { execFile } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, IRIS_BIN, makeTempDir, removeDir, runIris } from '../helpers/iris.js';

let dir: string;
let home: string;
let binDir: string;
beforeAll(async () => {
  dir = await makeTempDir();
  home = join(dir, 'home');
  binDir = join(dir, 'bin');
  await mkdir(binDir);
  await symlink(IRIS_BIN, join(binDir, 'iris'));
  expect(await runIris(['webhook', 'subscribe', 'github-pr', '--events', 'pull_request'], { home })).toMatchObject({ code: 0 });
});
afterAll(() => removeDir(dir));

function bash(script: string, args: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', script, 'bash', ...args], { env: cleanEnv({ IRIS_HOME: home, PATH: `${binDir}:${process.env.PATH ?? ''}` }), timeout: 20_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe('iris completion', () => {
  it.each(['bash', 'zsh'])('%s: bash -n accepts the script', async (shell) => {
    const result = await runIris(['completion', shell], { home });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const file = join(dir, `iris.${shell}`);
    await writeFile(file, result.stdout);
    expect(await bash(`bash -n ${file}`)).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('bash completes commands, flags, config keys, providers, slots, routes and platforms', async () => {
    const file = join(dir, 'iris.bash');
    await writeFile(file, (await runIris(['completion', 'bash'], { home })).stdout);
    const cases: Array<[string, string]> = [
      ['iris kan', 'kanban'],
      ['iris -p work config s', 'show set schema'],
      ['iris kanban list --s', '--status'],
      ['iris config get model.def', 'model.default'],
      ['iris model set cl', 'cloud-hosted'],
      ['iris model aux set title', 'title_generation'],
      ['iris model aux set vision anth', 'anthropic'],
      ['iris webhook test git', 'github-pr'],
      ['iris logs --route git', 'github-pr'],
      ['iris pairing approve dis', 'discord'],
      ['iris logs --level e', 'error'],
      ['iris completion f', 'fish'],
    ];
    for (const [line, expected] of cases) {
      const words = line.split(' ');
      const run = `source ${file}; COMP_WORDS=("$@"); COMP_CWORD=$((\${#COMP_WORDS[@]}-1)); _iris; echo "\${COMPREPLY[*]}"`;
      expect((await bash(run, words)).stdout.trim(), line).toBe(expected);
    }
  }, 60_000);

  it('fish: a complete line for each command path, flag and value source', async () => {
    const result = await runIris(['completion', 'fish'], { home });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("complete -c iris -f -n '__iris_path_is \\'iris\\'' -a ");
    expect(result.stdout).toMatch(/complete -c iris -f -n '__iris_path_is \\'iris config get\\'' -a '[^']*model\.default/);
    expect(result.stdout).toMatch(/complete -c iris -n '__iris_path_is \\'iris logs\\'' -l level -r -f -a 'trace debug info warn error fatal'/);
    expect(result.stdout).toContain('iris webhook list --json');
  });

  it('refuses an unknown shell', async () => {
    expect((await runIris(['completion', 'tcsh'], { home })).code).toBe(2);
  });
});
