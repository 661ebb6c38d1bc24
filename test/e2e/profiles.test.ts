// Profiles as separate homes, and `iris profile describe --auto` against the fake upstream.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';
import { parseYaml } from '../helpers/documents.js';

let fake: FakeUpstream;
let dir: string;
let home: string;
beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
});
afterEach(() => removeDir(dir));

const KEY = 'sk-profile-a-0123456789abcdef';
const fakeEnv = () => ({ OPENAI_BASE_URL: `${fake.url}/v1` });
const iris = (args: string[], env: Record<string, string> = {}) => runIris(args, { home, env: { ...fakeEnv(), ...env } });
const profileConfig = (name: string) => join(home, 'profiles', name, 'config.yaml');
const models = () => fake.requests.map((r) => (r.body as { model?: string }).model);
const requestText = (i: number) => JSON.stringify(fake.requests[i]?.body ?? null);

async function createProfile(name: string, config?: string): Promise<void> {
  expect(await iris(['profile', 'create', name])).toMatchObject({ code: 0 });
  if (config !== undefined) await writeFile(profileConfig(name), config, { mode: 0o600 });
}

const BASE_CONFIG = '# profile a: reviews\nmodel:\n  provider: openai\n  default: main-m\napproval_mode: off\n';

describe('profiles are separate homes', () => {
  it('keeps keys and sessions apart', async () => {
    await createProfile('a', BASE_CONFIG);
    await createProfile('b', BASE_CONFIG);
    expect(await iris(['-p', 'a', 'config', 'set', 'OPENAI_API_KEY', KEY])).toMatchObject({ code: 0 });
    expect(await readFile(join(home, 'profiles', 'a', '.env'), 'utf8')).toContain(KEY);

    const inA = await iris(['-p', 'a', 'config', 'get', 'OPENAI_API_KEY', '--json']);
    expect(JSON.parse(inA.stdout)).toMatchObject({ key: 'OPENAI_API_KEY', set: true, source: '.env' });
    const inB = await iris(['-p', 'b', 'config', 'get', 'OPENAI_API_KEY']);
    expect(inB.code).not.toBe(0);
    expect(inB.stderr).toContain(`neither in the environment nor in ${join(home, 'profiles', 'b', '.env')}`);
    const showB = await iris(['-p', 'b', 'config', 'show', '--json']);
    expect(showB.code).toBe(0);
    expect(showB.stdout).not.toContain('sk-');
    // IRIS_PROFILE does the same as -p.
    expect((await iris(['config', 'get', 'OPENAI_API_KEY', '--json'], { IRIS_PROFILE: 'a' })).code).toBe(0);

    fake.script('main-m', { kind: 'text', deltas: ['Hello from a.'] }, { kind: 'text', deltas: ['Greeting in a'] });
    const chat = await iris(['-p', 'a', 'chat', '-q', 'hi']);
    expect(chat).toMatchObject({ code: 0, stdout: 'Hello from a.\n' });
    const listA = JSON.parse((await iris(['-p', 'a', 'sessions', 'list', '--json'])).stdout) as Array<{ title: string }>;
    expect(listA.map((s) => s.title)).toEqual(['Greeting in a']);
    const listB = await iris(['-p', 'b', 'sessions', 'list', '--json']);
    expect(listB.code).toBe(0);
    expect(JSON.parse(listB.stdout)).toEqual([]);
    const listDefault = await iris(['sessions', 'list', '--json']);
    expect(JSON.parse(listDefault.stdout)).toEqual([]);
  });

  it('refuses an unknown profile with exit 2, naming iris profile create', async () => {
    const result = await iris(['-p', 'nope', 'status']);
    expect(result).toEqual({ code: 2, stdout: '', stderr: 'iris: error: no profile "nope" (from --profile); create it with: iris profile create nope\n' });
    const bad = await iris(['config', 'show'], { IRIS_PROFILE: 'Bad Name' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('iris: error: profile name "Bad Name" must match ^[a-z0-9][a-z0-9._-]{0,63}$ (lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64) and cannot contain ".." (from IRIS_PROFILE)\n');
  });

  it('use sets the default for later commands; delete moves to .trash and refuses default and the active one', async () => {
    await createProfile('a', BASE_CONFIG);
    await createProfile('b');
    expect(await iris(['profile', 'use', 'a'])).toMatchObject({ code: 0 });
    expect(await readFile(join(home, 'active_profile'), 'utf8')).toBe('a\n');
    const list = JSON.parse((await iris(['profile', 'list', '--json'])).stdout) as Array<{ name: string; active: boolean }>;
    expect(list.map((p) => [p.name, p.active])).toEqual([['default', false], ['a', true], ['b', false]]);
    expect(JSON.parse((await iris(['config', 'get', 'model.default', '--json'])).stdout)).toBe('main-m');
    // -p wins over the stored default.
    expect(JSON.parse((await iris(['-p', 'default', 'profile', 'show', '--json'])).stdout)).toMatchObject({ name: 'default', active: true, stored_default: 'a' });

    expect(await iris(['profile', 'delete', 'default'])).toEqual({ code: 2, stdout: '', stderr: 'iris: error: the default profile is the home itself and cannot be deleted\n' });
    expect(await iris(['profile', 'delete', 'a'])).toEqual({ code: 2, stdout: '', stderr: 'iris: error: profile "a" is the active one; switch first (iris profile use default)\n' });
    const deleted = await iris(['profile', 'delete', 'b', '--json']);
    expect(deleted.code).toBe(0);
    const movedTo = (JSON.parse(deleted.stdout) as { moved_to: string }).moved_to;
    expect(movedTo.startsWith(join(home, 'profiles', '.trash', 'b-'))).toBe(true);
    const after = JSON.parse((await iris(['profile', 'list', '--json'])).stdout) as Array<{ name: string }>;
    expect(after.map((p) => p.name)).toEqual(['default', 'a']);
    // A stored default whose folder is gone: commands fail and say how out; profile commands still run.
    await rm(join(home, 'profiles', 'a'), { recursive: true });
    expect(await iris(['status'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `iris: error: no profile "a" (from ${join(home, 'active_profile')} (set by iris profile use)); create it with: iris profile create a, or go back with: iris profile use default\n`,
    });
    expect(await iris(['profile', 'use', 'default'])).toMatchObject({ code: 0 });
    expect((await iris(['status', '--json'])).code).toBe(0);
  });

  it('--clone copies config.yaml and .env, not state', async () => {
    await createProfile('a', BASE_CONFIG);
    await writeFile(join(home, 'profiles', 'a', '.env'), `OPENAI_API_KEY=${KEY}\n`, { mode: 0o600 });
    await writeFile(join(home, 'profiles', 'a', 'state.db'), 'not copied');
    const created = await iris(['profile', 'create', 'c', '--clone', 'a', '--json']);
    expect(JSON.parse(created.stdout)).toMatchObject({ name: 'c', cloned_from: 'a', cloned: ['config.yaml', '.env'] });
    expect(await readFile(profileConfig('c'), 'utf8')).toBe(BASE_CONFIG);
    await expect(readFile(join(home, 'profiles', 'c', 'state.db'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('iris profile describe --auto', () => {
  const keyEnv = { OPENAI_API_KEY: KEY };

  it('asks the main model when the slot is auto, with config (masked), skills and titles, and stores the paragraph', async () => {
    await createProfile('a', BASE_CONFIG);
    await mkdir(join(home, 'profiles', 'a', 'skills', 'review'), { recursive: true });
    await writeFile(join(home, 'profiles', 'a', 'skills', 'review', 'SKILL.md'), '---\nname: review\ndescription: reviews pull requests\n---\nRead the diff.\n');
    fake.script('main-m', { kind: 'text', deltas: ['Sure.'] }, { kind: 'text', deltas: ['Release checklist'] }, { kind: 'text', deltas: ['A profile for\n', 'code review.'] });
    expect(await iris(['-p', 'a', 'chat', '-q', 'hi'], keyEnv)).toMatchObject({ code: 0 });

    const result = await iris(['profile', 'describe', 'a', '--auto', '--json'], keyEnv);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ ok: true, profile: 'a', description: 'A profile for code review.', provider: 'openai', model: 'main-m' });
    expect(models()).toEqual(['main-m', 'main-m', 'main-m']);
    const prompt = requestText(2);
    expect(prompt).toContain('Profile: a');
    expect(prompt).toContain('review: reviews pull requests');
    expect(prompt).toContain('Release checklist');
    expect(prompt).not.toContain(KEY);
    const text = await readFile(profileConfig('a'), 'utf8');
    expect(text.startsWith('# profile a: reviews\n')).toBe(true);
    expect(parseYaml(text)).toMatchObject({ description: 'A profile for code review.', description_generated: true });
    expect((await iris(['profile', 'describe', 'a'])).stdout).toBe('A profile for code review.\n');
  });

  it("uses the profile's own pinned slot, not the caller's", async () => {
    // The calling (default) profile pins the slot elsewhere: that must not matter.
    await writeFile(join(home, 'config.yaml'), `${BASE_CONFIG}auxiliary:\n  profile_describer: { provider: openai, model: caller-m }\n`, { mode: 0o600 });
    await createProfile('a', `${BASE_CONFIG}auxiliary:\n  profile_describer:\n    provider: openai\n    model: desc-m\n`);
    fake.script('desc-m', { kind: 'text', deltas: ['Pinned words.'] });
    const result = await iris(['profile', 'describe', 'a', '--auto'], keyEnv);
    expect(result).toMatchObject({ code: 0, stdout: 'Pinned words.\n' });
    expect(models()).toEqual(['desc-m']);
    expect(parseYaml(await readFile(profileConfig('a'), 'utf8'))).toMatchObject({ description: 'Pinned words.' });
  });

  it('refuses a blank answer (after one retry) and leaves config.yaml unchanged', async () => {
    const config = `${BASE_CONFIG}description: the old one\n`;
    await createProfile('a', config);
    fake.script('main-m', { kind: 'text', deltas: ['  \n '] });
    const result = await iris(['-p', 'a', 'profile', 'describe', '--auto'], keyEnv);
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'iris: error: the profile_describer model gave a blank answer (malformed); the description was not changed\n' });
    expect(models()).toEqual(['main-m', 'main-m']);
    expect(requestText(1)).toContain('Your answer was blank');
    expect(await readFile(profileConfig('a'), 'utf8')).toBe(config);
  });

  it('falls back along the slot chain when its provider is down', async () => {
    await createProfile(
      'a',
      `${BASE_CONFIG}auxiliary:\n  profile_describer:\n    provider: openai\n    model: desc-m\n    fallback_chain:\n      - { provider: openai, model: backup-m }\n`,
    );
    fake.script('desc-m', { kind: 'error', status: 503 });
    fake.script('backup-m', { kind: 'text', deltas: ['From the backup.'] });
    const result = await iris(['profile', 'describe', 'a', '--auto', '--json'], keyEnv);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ description: 'From the backup.', model: 'backup-m' });
    expect(models().at(-1)).toBe('backup-m');
    expect(models()).toContain('desc-m');
  });
});
