import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyProfile, selectProfile } from './current.js';

let base: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'iris-current-'));
  await mkdir(join(base, 'profiles', 'work'), { recursive: true });
});
afterEach(() => rm(base, { recursive: true, force: true }));

describe('selectProfile', () => {
  it('is the home itself by default, and a created profile when named', () => {
    expect(selectProfile(undefined, { IRIS_HOME: base })).toEqual({ ok: true, profile: { name: 'default', source: 'default', baseDir: base, homeDir: base } });
    expect(selectProfile('work', { IRIS_HOME: base, IRIS_PROFILE: 'other' })).toEqual({
      ok: true,
      profile: { name: 'work', source: 'flag', baseDir: base, homeDir: join(base, 'profiles', 'work') },
    });
  });

  it('reads the stored default below IRIS_PROFILE', async () => {
    await writeFile(join(base, 'active_profile'), 'work\n');
    expect(selectProfile(undefined, { IRIS_HOME: base })).toMatchObject({ ok: true, profile: { name: 'work', source: 'stored' } });
    expect(selectProfile(undefined, { IRIS_HOME: base, IRIS_PROFILE: 'default' })).toMatchObject({ ok: true, profile: { name: 'default', source: 'env' } });
  });

  it('refuses a profile not created and a bad name, saying where it came from', () => {
    expect(selectProfile(undefined, { IRIS_HOME: base, IRIS_PROFILE: 'gone' })).toEqual({
      ok: false,
      source: 'env',
      baseDir: base,
      message: 'no profile "gone" (from IRIS_PROFILE); create it with: iris profile create gone',
    });
    expect(selectProfile('../x', { IRIS_HOME: base })).toMatchObject({
      ok: false,
      message: 'profile name "../x" must match ^[a-z0-9][a-z0-9._-]{0,63}$ (lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64) and cannot contain ".." (from --profile)',
    });
  });

  it('applying points IRIS_HOME at the profile and drops IRIS_PROFILE', () => {
    const env: NodeJS.ProcessEnv = { IRIS_HOME: base, IRIS_PROFILE: 'work' };
    const selected = selectProfile(undefined, env);
    expect(selected.ok).toBe(true);
    applyProfile((selected as Extract<typeof selected, { ok: true }>).profile, env);
    expect(env).toEqual({ IRIS_HOME: join(base, 'profiles', 'work') });
    // What a child process started from here resolves: the same home, as its default profile.
    expect(selectProfile(undefined, env)).toMatchObject({ ok: true, profile: { name: 'default', homeDir: join(base, 'profiles', 'work') } });
  });
});
