// What a fresh install runs and what the README tells a new user to type.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/iris.js';

type Manifest = { name: string; scripts?: Record<string, string>; allowScripts?: Record<string, boolean> };

async function installedPackages(): Promise<Manifest[]> {
  const root = join(REPO_ROOT, 'node_modules');
  const names: string[] = [];
  for (const entry of await readdir(root)) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@')) for (const scoped of await readdir(join(root, entry))) names.push(`${entry}/${scoped}`);
    else names.push(entry);
  }
  const manifests = await Promise.all(
    names.map(async (name) => JSON.parse(await readFile(join(root, name, 'package.json'), 'utf8').catch(() => '{}')) as Manifest),
  );
  return manifests.filter((m) => typeof m.name === 'string');
}

describe('install hygiene', () => {
  it('every installed package with an install script is named in allowScripts (npm ci warns about none)', async () => {
    const pkg = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
    const withScripts = (await installedPackages())
      .filter((m) => ['preinstall', 'install', 'postinstall'].some((hook) => m.scripts?.[hook]))
      .map((m) => m.name)
      .sort();
    expect(withScripts).toEqual(Object.keys(pkg.allowScripts ?? {}).sort());
  });

  it("the README's two commands come after one install line", async () => {
    const readme = await readFile(join(REPO_ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Two commands'), readme.indexOf('\n## ', readme.indexOf('## Two commands') + 1));
    const [before = '', block = ''] = section.split(/```sh\n/);
    expect(before).toContain('install once with `npm ci`');
    const commands = block.slice(0, block.indexOf('```'));
    expect(commands.split('\n').filter((line) => line.trim()).map((line) => line.split('#')[0]!.trim())).toEqual(['./bin/iris --help', 'npm test']);
  });
});
