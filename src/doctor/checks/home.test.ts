import { describe, expect, it } from 'vitest';
import { checkHome, checkPermissions, type PathFacts } from './home.js';

const DIR = '/home/me/.iris';

describe('checkHome', () => {
  it.each([
    [0o40700, { status: 'ok', finding: '/home/me/.iris (mode 0700)' }],
    [0o40500, { status: 'ok', finding: '/home/me/.iris (mode 0500)' }],
    [0o40755, { status: 'fail', finding: '/home/me/.iris has mode 0755, not 0700', fix: 'chmod 700 /home/me/.iris' }],
    [0o40770, { status: 'fail', finding: '/home/me/.iris has mode 0770, not 0700', fix: 'chmod 700 /home/me/.iris' }],
    [0o41777, { status: 'fail', finding: '/home/me/.iris is shared (mode 1777): anyone may add files to it', fix: 'point IRIS_HOME at a private folder (the default is ~/.iris)' }],
    [0o40707, { status: 'fail', finding: '/home/me/.iris is shared (mode 0707): anyone may add files to it', fix: 'point IRIS_HOME at a private folder (the default is ~/.iris)' }],
    [0o41700, { status: 'fail', finding: '/home/me/.iris is shared (mode 1700): anyone may add files to it', fix: 'point IRIS_HOME at a private folder (the default is ~/.iris)' }],
  ])('a directory with mode %o', (mode, expected) => {
    expect(checkHome({ kind: 'directory', dir: DIR, mode })).toEqual({ id: 'home', name: 'home', ...expected });
  });

  it('warns when the home does not exist yet, and says what creates it', () => {
    expect(checkHome({ kind: 'missing', dir: DIR })).toEqual({
      id: 'home',
      name: 'home',
      status: 'warn',
      finding: '/home/me/.iris does not exist yet',
      fix: 'iris setup creates it (mode 0700), as does any iris command that writes',
    });
  });

  it('fails on a file in place of the home, and on one it cannot use', () => {
    expect(checkHome({ kind: 'not_directory', dir: DIR })).toMatchObject({ status: 'fail', finding: '/home/me/.iris is not a directory' });
    expect(checkHome({ kind: 'unusable', dir: '/srv/my iris', error: 'EACCES' })).toMatchObject({
      status: 'fail',
      finding: 'cannot use /srv/my iris: EACCES',
      fix: "make it yours and private (chmod 700 '/srv/my iris'), or point IRIS_HOME at a private folder",
    });
  });
});

const file = (label: string, mode?: number, type: 'file' | 'directory' | 'other' = 'file'): PathFacts => ({
  label,
  path: `${DIR}/${label}`,
  want: 'file',
  ...(mode === undefined ? {} : { found: { type, mode } }),
});
const dir = (label: string, mode?: number): PathFacts => ({
  label,
  path: `${DIR}/${label}`,
  want: 'directory',
  ...(mode === undefined ? {} : { found: { type: 'directory', mode } }),
});

describe('checkPermissions', () => {
  it('lists what is present and private', () => {
    expect(checkPermissions([file('config.yaml', 0o100600), file('.env', 0o100400), file('state.db'), dir('logs', 0o40700)])).toEqual({
      id: 'permissions',
      name: 'permissions',
      status: 'ok',
      finding: 'owner-only: config.yaml, .env, logs',
    });
  });

  it('has nothing to check on an empty home', () => {
    expect(checkPermissions([file('config.yaml'), dir('logs')]).finding).toBe('nothing to check yet (no config.yaml, .env, state.db or logs)');
  });

  it('reports every loose mode with one chmod per wanted mode, and changes nothing', () => {
    const paths = [file('config.yaml', 0o100644), file('.env', 0o100640), file('state.db', 0o100600), dir('logs', 0o40755)];
    expect(checkPermissions(paths)).toEqual({
      id: 'permissions',
      name: 'permissions',
      status: 'fail',
      finding: 'config.yaml is 0644 (want 0600), .env is 0640 (want 0600), logs is 0755 (want 0700)',
      fix: 'chmod 600 /home/me/.iris/config.yaml /home/me/.iris/.env && chmod 700 /home/me/.iris/logs',
    });
  });

  it('fails on something other than a file where a file belongs', () => {
    expect(checkPermissions([file('config.yaml', 0o40700, 'directory')])).toMatchObject({
      status: 'fail',
      finding: '/home/me/.iris/config.yaml is not a file',
      fix: 'move /home/me/.iris/config.yaml aside; Iris creates a new one',
    });
  });
});
