import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProfile, deleteProfile, listProfileNames, profileExists, storedDefault, strayProfileFolders, useProfile } from './manage.js';

let base: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'iris-profiles-'));
});
afterEach(() => rm(base, { recursive: true, force: true }));

describe('profiles on disk', () => {
  it('creates a 0700 home, lists default first, refuses bad and duplicate names', async () => {
    expect(await createProfile(base, 'b')).toMatchObject({ ok: true, name: 'b', home: join(base, 'profiles', 'b'), cloned: [] });
    expect(await createProfile(base, 'a')).toMatchObject({ ok: true });
    expect(((await stat(join(base, 'profiles', 'a'))).mode & 0o777).toString(8)).toBe('700');
    expect(await listProfileNames(base)).toEqual(['default', 'a', 'b']);
    expect(await createProfile(base, 'a')).toEqual({ ok: false, error: { code: 'invalid_value', message: 'profile "a" already exists' } });
    expect(await createProfile(base, 'default')).toEqual({ ok: false, error: { code: 'invalid_value', message: 'profile "default" already exists' } });
    expect(await createProfile(base, 'A')).toMatchObject({ ok: false, error: { code: 'invalid_value' } });
  });

  it('clones config.yaml and .env only', async () => {
    await writeFile(join(base, 'config.yaml'), 'model: x\n');
    await writeFile(join(base, '.env'), 'K=v\n');
    await writeFile(join(base, 'state.db'), 'state');
    expect(await createProfile(base, 'c', 'default')).toMatchObject({ ok: true, cloned: ['config.yaml', '.env'] });
    expect(await readFile(join(base, 'profiles', 'c', '.env'), 'utf8')).toBe('K=v\n');
    await expect(stat(join(base, 'profiles', 'c', 'state.db'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await createProfile(base, 'd', 'nope')).toMatchObject({ ok: false, error: { message: 'no profile "nope" to clone; see iris profile list' } });
  });

  it('delete moves to .trash; refuses default and the active ones', async () => {
    await createProfile(base, 'a');
    expect(await deleteProfile(base, 'default', [])).toMatchObject({ ok: false });
    expect(await deleteProfile(base, 'a', ['a'])).toMatchObject({ ok: false, error: { message: 'profile "a" is the active one; switch first (iris profile use default)' } });
    const deleted = await deleteProfile(base, 'a', ['default'], new Date('2026-11-26T16:00:00.000Z'));
    expect(deleted).toEqual({ ok: true, name: 'a', movedTo: join(base, 'profiles', '.trash', 'a-2026-11-26T16-00-00-000Z') });
    expect(await listProfileNames(base)).toEqual(['default']);
  });

  it('use stores the default and use default clears it', async () => {
    await mkdir(join(base, 'profiles', 'w'), { recursive: true });
    expect(await useProfile(base, 'w')).toEqual({ ok: true, name: 'w' });
    expect(storedDefault(base)).toBe('w');
    expect(await useProfile(base, 'default')).toEqual({ ok: true, name: 'default' });
    expect(storedDefault(base)).toBe('default');
    expect(await useProfile(base, 'zz')).toMatchObject({ ok: false });
  });

  it('names the folders an earlier name rule allowed, instead of hiding them', async () => {
    await createProfile(base, 'work');
    for (const folder of ['_scratch', 'Old', '.trash']) await mkdir(join(base, 'profiles', folder), { recursive: true });
    await writeFile(join(base, 'profiles', 'README'), 'a file, not a profile');
    expect(await listProfileNames(base)).toEqual(['default', 'work']);
    const rule = 'must match ^[a-z0-9][a-z0-9._-]{0,63}$ (lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64) and cannot contain ".."';
    expect(await strayProfileFolders(base)).toEqual([
      { folder: 'Old', error: `profile name "Old" ${rule}` },
      { folder: '_scratch', error: `profile name "_scratch" ${rule}` },
    ]);
  });

  it('refuses names that leave profiles/ in every call, touching nothing outside', async () => {
    // A folder that looks like a profile beside the home: `../../outside` from profiles/ is it.
    const home = join(base, 'home');
    const outside = join(base, 'outside');
    await mkdir(outside, { recursive: true });
    await writeFile(join(outside, '.env'), 'SECRET=outside\n');
    await createProfile(home, 'work');
    const rule = (name: string) => `profile name ${JSON.stringify(name)} must match ^[a-z0-9][a-z0-9._-]{0,63}$ (lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64) and cannot contain ".."`;
    for (const name of ['../../outside', '..', '../x', '/tmp/x', 'a/b', '.trash']) {
      const refused = { ok: false, error: { code: 'invalid_value', message: rule(name) } };
      expect(await createProfile(home, name)).toEqual(refused);
      expect(await createProfile(home, 'copy', name)).toEqual(refused);
      expect(await deleteProfile(home, name, [])).toEqual(refused);
      expect(await useProfile(home, name)).toEqual(refused);
      expect(profileExists(home, name)).toBe(false);
    }
    expect((await readdir(join(home, 'profiles'))).sort()).toEqual(['work']);
    expect(await readdir(outside)).toEqual(['.env']);
    await expect(stat(join(home, 'active_profile'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
