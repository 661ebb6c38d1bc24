import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeProfile } from '../profiles/describe.js';
import { createFromRequest, deleteRefusal, describeFromRequest, editFromRequest, profilesJson, switchTarget } from './profiles-api.js';

const RULE = 'must match ^[a-z0-9][a-z0-9._-]{0,63}$ (lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64) and cannot contain ".."';

const CANARY_CONFIG = 'model:\n  provider: openai\n  default: m\n';

let dir: string;
let home: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'iris-profiles-api-'));
  home = join(dir, 'home');
  // Beside the home, a folder that `../../canary` from profiles/ reaches: a describe there would
  // read its .env and write its config.yaml. The model URL goes nowhere, so a call would fail loudly.
  await mkdir(join(dir, 'canary'), { recursive: true });
  await mkdir(join(home, 'profiles'), { recursive: true });
  await writeFile(join(dir, 'canary', 'config.yaml'), CANARY_CONFIG);
  await writeFile(join(dir, 'canary', '.env'), 'OPENAI_API_KEY=sk-canary-0123456789\nOPENAI_BASE_URL=http://127.0.0.1:9/v1\n');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('describeFromRequest', () => {
  it.each(['../../canary', '../', '..', '/etc', '/tmp/x', 'a/b', '', 'Work'])('answers 400 with the rule for %j, before any file is touched', async (name) => {
    expect(await describeFromRequest({ profile: name }, home, {})).toEqual({ ok: false, status: 400, error: `profile name ${JSON.stringify(name)} ${RULE}` });
    expect(await readdir(join(dir, 'canary'))).toEqual(['.env', 'config.yaml']);
    expect(await readFile(join(dir, 'canary', 'config.yaml'), 'utf8')).toBe(CANARY_CONFIG);
  });

  it('answers 400 for a body without a profile, and 404 for a good name with no profile', async () => {
    expect(await describeFromRequest({ name: 'work' }, home, {})).toEqual({ ok: false, status: 400, error: 'send {"profile": "<name>"}' });
    expect(await describeFromRequest({ profile: 'nope' }, home, {})).toEqual({ ok: false, status: 404, error: 'no profile "nope"; see iris profile list' });
  });
});

describe('describeProfile', () => {
  it('refuses a bad name itself, so a caller that forgets the check still cannot leave the home', async () => {
    expect(await describeProfile(home, '../../canary', {}, 'dashboard')).toEqual({ ok: false, code: 'bad_name', message: `profile name "../../canary" ${RULE}` });
  });
});

describe('deleteRefusal', () => {
  const facts = { exists: true, served: 'work', storedDefault: 'home' };
  it.each([
    ['../x', facts, 400, `profile name "../x" ${RULE}`],
    ['default', facts, 400, 'the default profile is the home itself and cannot be deleted'],
    ['nope', { ...facts, exists: false }, 404, 'no profile "nope"; see iris profile list'],
    ['work', facts, 409, 'profile "work" is the one this dashboard serves; switch to another first'],
    ['home', facts, 409, 'profile "home" is the default for iris commands; change it first (iris profile use default)'],
  ] as const)('refuses %j', (name, given, status, error) => {
    expect(deleteRefusal(name, given)).toEqual({ status, error });
  });
  it('lets any other existing profile go', () => {
    expect(deleteRefusal('spare', facts)).toBeUndefined();
  });
});

describe('createFromRequest', () => {
  beforeEach(async () => {
    await writeFile(join(home, 'config.yaml'), '# home\nmodel:\n  provider: openai\n  default: m\n');
    await writeFile(join(home, '.env'), 'OPENAI_API_KEY=sk-home-0123456789\n');
  });

  it('creates a copy of another profile: config.yaml and .env, byte for byte', async () => {
    expect(await createFromRequest({ name: 'work', clone_from: 'default' }, home)).toEqual({
      ok: true,
      status: 201,
      body: { ok: true, name: 'work', cloned_from: 'default', cloned: ['config.yaml', '.env'] },
    });
    expect(await readFile(join(home, 'profiles', 'work', 'config.yaml'), 'utf8')).toBe('# home\nmodel:\n  provider: openai\n  default: m\n');
    expect(await readFile(join(home, 'profiles', 'work', '.env'), 'utf8')).toBe('OPENAI_API_KEY=sk-home-0123456789\n');
  });

  it('creates an empty one without clone_from', async () => {
    expect(await createFromRequest({ name: 'work' }, home)).toEqual({ ok: true, status: 201, body: { ok: true, name: 'work', cloned_from: null, cloned: [] } });
    expect(await readdir(join(home, 'profiles', 'work'))).toEqual([]);
  });

  it('refuses a bad body, a bad name, a bad or missing source and a taken name', async () => {
    const shape = 'send {"name": "<new profile>", "clone_from"?: "<profile to copy config.yaml and .env from>"}';
    expect(await createFromRequest({ name: 3 }, home)).toEqual({ ok: false, status: 400, error: shape });
    expect(await createFromRequest([], home)).toEqual({ ok: false, status: 400, error: shape });
    expect(await createFromRequest({ name: '../../canary' }, home)).toEqual({ ok: false, status: 400, error: `profile name "../../canary" ${RULE}` });
    expect(await createFromRequest({ name: 'x', clone_from: '../../canary' }, home)).toEqual({ ok: false, status: 400, error: `profile name "../../canary" ${RULE}` });
    expect(await createFromRequest({ name: 'x', clone_from: 'nope' }, home)).toEqual({ ok: false, status: 404, error: 'no profile "nope"; see iris profile list' });
    expect(await createFromRequest({ name: 'default' }, home)).toEqual({ ok: false, status: 409, error: 'profile "default" already exists' });
    expect(await readdir(join(home, 'profiles'))).toEqual([]);
  });
});

describe('editFromRequest and the generated mark', () => {
  beforeEach(async () => {
    await mkdir(join(home, 'profiles', 'work'));
    await writeFile(join(home, 'profiles', 'work', 'config.yaml'), '# keep me\ndescription: Old words.\ndescription_generated: true\n');
  });

  it('lists the mark, and a person\'s edit (one paragraph) clears it, keeping the comment', async () => {
    expect(await profilesJson(home, 'default')).toEqual({
      served: 'default',
      stored_default: 'default',
      profiles: [
        { name: 'default', description: '', generated: false, active: true },
        { name: 'work', description: 'Old words.', generated: true, active: false },
      ],
    });
    expect(await editFromRequest('work', { description: '  New\n words. ' }, home)).toEqual({ ok: true, body: { ok: true, name: 'work', description: 'New words.', generated: false } });
    expect(await readFile(join(home, 'profiles', 'work', 'config.yaml'), 'utf8')).toBe('# keep me\ndescription: New words.\n');
    expect((await profilesJson(home, 'work')).profiles[1]).toEqual({ name: 'work', description: 'New words.', generated: false, active: true });
  });

  it('removes the description for an empty one', async () => {
    expect(await editFromRequest('work', { description: ' ' }, home)).toEqual({ ok: true, body: { ok: true, name: 'work', description: '', generated: false } });
    expect(parse(await readFile(join(home, 'profiles', 'work', 'config.yaml'), 'utf8'))).toEqual({});
  });

  it('refuses a bad name, a missing profile, a bad body and an overlong text, changing nothing', async () => {
    expect(await editFromRequest('../../canary', { description: 'x' }, home)).toEqual({ ok: false, status: 400, error: `profile name "../../canary" ${RULE}` });
    expect(await editFromRequest('nope', { description: 'x' }, home)).toEqual({ ok: false, status: 404, error: 'no profile "nope"; see iris profile list' });
    expect(await editFromRequest('work', { text: 'x' }, home)).toEqual({ ok: false, status: 400, error: 'send {"description": "<one paragraph>"} ("" removes it)' });
    expect(await editFromRequest('work', { description: 'x'.repeat(2001) }, home)).toEqual({ ok: false, status: 400, error: 'the description has 2001 characters; at most 2000' });
    expect(await readFile(join(home, 'profiles', 'work', 'config.yaml'), 'utf8')).toBe('# keep me\ndescription: Old words.\ndescription_generated: true\n');
    expect(await readFile(join(dir, 'canary', 'config.yaml'), 'utf8')).toBe(CANARY_CONFIG);
  });
});

describe('switchTarget', () => {
  it('answers the name of an existing profile, 400 for a bad body or name, 404 for a missing one', async () => {
    await mkdir(join(home, 'profiles', 'work'));
    expect(switchTarget({ name: 'work' }, home)).toEqual({ ok: true, name: 'work' });
    expect(switchTarget({ name: 'default' }, home)).toEqual({ ok: true, name: 'default' });
    expect(switchTarget({ profile: 'work' }, home)).toEqual({ ok: false, status: 400, error: 'send {"name": "<profile to serve>"}' });
    expect(switchTarget({ name: '../../canary' }, home)).toEqual({ ok: false, status: 400, error: `profile name "../../canary" ${RULE}` });
    expect(switchTarget({ name: 'nope' }, home)).toEqual({ ok: false, status: 404, error: 'no profile "nope"; see iris profile list' });
  });
});
