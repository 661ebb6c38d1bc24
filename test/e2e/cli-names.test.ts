// Names given to the CLI never leave the home (issue 32): every command that takes a profile,
// skill or route name exits 2 with the rule when the name is a path, and creates, reads, moves
// or copies nothing. `../x` from profiles/ or skills/ is $IRIS_HOME/x, and `/abs` is a folder
// beside the home: both are made to look like a profile and a skill, so a name that got through
// would find something to show, copy or send to a model.
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

const RULE = 'must match ^[a-z0-9][a-z0-9._-]{0,63}$ (lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64) and cannot contain ".."';
const LOOKALIKE_CONFIG = '# a look-alike: nothing may read or change this\nmodel:\n  provider: openai\n  default: leak-m\ndescription: outside the home\n';
const LOOKALIKE_SKILL = '---\nname: x\ndescription: outside the skills folder\n---\nLeaked.\n';

let fake: FakeUpstream;
let dir: string;
let home: string;
let abs: string;

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  fake.script('leak-m', { kind: 'text', deltas: ['Leaked.'] });
  dir = await makeTempDir('iris-cli-names-');
  home = join(dir, 'home');
  abs = join(dir, 'abs');
  await mkdir(home, { mode: 0o700 });
  for (const folder of [join(home, 'x'), abs]) {
    await mkdir(folder);
    await writeFile(join(folder, 'config.yaml'), LOOKALIKE_CONFIG);
    await writeFile(join(folder, '.env'), `OPENAI_API_KEY=sk-lookalike-0123456789\nOPENAI_BASE_URL=${fake.url}/v1\n`);
    await writeFile(join(folder, 'SKILL.md'), LOOKALIKE_SKILL);
  }
  expect((await runIris(['profile', 'create', 'work'], { home })).code).toBe(0);
});
afterEach(() => removeDir(dir));

/** Every path under the test folder with its bytes and modification time. */
async function snapshot(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    const info = await stat(path);
    out[path] = entry.isFile() ? `${info.mtimeMs} ${await readFile(path, 'utf8')}` : `${info.mtimeMs} dir`;
  }
  return out;
}

type Case = { readonly kind: 'profile' | 'skill' | 'route'; readonly args: (name: string) => string[]; readonly env?: (name: string) => Record<string, string>; readonly from?: string };

const CASES: Readonly<Record<string, Case>> = {
  'profile create': { kind: 'profile', args: (n) => ['profile', 'create', n] },
  'profile create --clone': { kind: 'profile', args: (n) => ['profile', 'create', 'copy', '--clone', n] },
  'profile show': { kind: 'profile', args: (n) => ['profile', 'show', n] },
  'profile delete': { kind: 'profile', args: (n) => ['profile', 'delete', n] },
  'profile use': { kind: 'profile', args: (n) => ['profile', 'use', n] },
  'profile describe': { kind: 'profile', args: (n) => ['profile', 'describe', n] },
  'profile describe --auto': { kind: 'profile', args: (n) => ['profile', 'describe', n, '--auto'] },
  '-p': { kind: 'profile', args: (n) => ['-p', n, 'config', 'show'], from: ' (from --profile)' },
  IRIS_PROFILE: { kind: 'profile', args: () => ['config', 'show'], env: (n) => ({ IRIS_PROFILE: n }), from: ' (from IRIS_PROFILE)' },
  'skills show': { kind: 'skill', args: (n) => ['skills', 'show', n] },
  'skills remove': { kind: 'skill', args: (n) => ['skills', 'remove', n] },
  'webhook subscribe': { kind: 'route', args: (n) => ['webhook', 'subscribe', n] },
  'webhook subscribe --skills': { kind: 'skill', args: (n) => ['webhook', 'subscribe', 'ci', '--skills', `deploy,${n}`] },
  'webhook remove': { kind: 'route', args: (n) => ['webhook', 'remove', n] },
  'webhook test': { kind: 'route', args: (n) => ['webhook', 'test', n] },
  'webhook deliveries --route': { kind: 'route', args: (n) => ['webhook', 'deliveries', '--route', n] },
};

describe('a name that is a path', { timeout: 120_000 }, () => {
  it.each(Object.keys(CASES))('iris %s exits 2 with the rule on ../x and /abs, touching nothing', async (label) => {
    const { kind, args, env, from = '' } = CASES[label]!;
    const before = await snapshot();
    for (const name of ['../x', abs]) {
      const result = await runIris(args(name), { home, env: { OPENAI_BASE_URL: `${fake.url}/v1`, ...env?.(name) } });
      expect(result).toEqual({ code: 2, stdout: '', stderr: `iris: error: ${kind} name ${JSON.stringify(name)} ${RULE}${from}\n` });
    }
    expect(await snapshot()).toEqual(before);
    expect(fake.requests).toEqual([]);
  });
});

describe('iris skills install', { timeout: 60_000 }, () => {
  // `../x` and `/abs` are not names here: install reads a SKILL.md from a URL or a path, and the
  // name that becomes a folder is the one in its front matter.
  it('exits 2 on a bare name that breaks the rule, and installs nothing from a SKILL.md that names a path', async () => {
    await writeFile(join(abs, 'evil.md'), '---\nname: "../evil"\ndescription: climbs out\n---\nbody\n');
    const before = await snapshot();
    for (const name of ['Evil', '.hidden', 'a..b']) {
      expect(await runIris(['skills', 'install', name], { home })).toEqual({ code: 2, stdout: '', stderr: `iris: error: skill name ${JSON.stringify(name)} ${RULE}\n` });
    }
    const evil = await runIris(['skills', 'install', join(abs, 'evil.md')], { home });
    expect(evil).toEqual({ code: 1, stdout: '', stderr: `iris: error: ${join(abs, 'evil.md')}: SKILL.md front matter: skill name "../evil" ${RULE}\n` });
    expect(await snapshot()).toEqual(before);
  });
});
