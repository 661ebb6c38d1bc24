import { chmod, mkdir, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test/helpers/iris.js';
import { prepareHome, resolveHomePaths } from './home.js';

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(() => removeDir(dir));

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe('resolveHomePaths', () => {
  it('defaults to ~/.iris and honours IRIS_HOME', () => {
    expect(resolveHomePaths({}).dir).toBe(join(homedir(), '.iris'));
    expect(resolveHomePaths({ IRIS_HOME: '  ' }).dir).toBe(join(homedir(), '.iris'));
    const paths = resolveHomePaths({ IRIS_HOME: '/srv/iris' });
    expect(paths).toEqual({
      dir: '/srv/iris',
      configPath: '/srv/iris/config.yaml',
      envPath: '/srv/iris/.env',
      statePath: '/srv/iris/state.db',
      logsDir: '/srv/iris/logs',
    });
  });
});

describe('prepareHome', () => {
  it('creates a missing home (and its parents) with mode 0700', async () => {
    const paths = resolveHomePaths({ IRIS_HOME: join(dir, 'a', 'b') });
    const result = await prepareHome(paths);
    expect(result).toEqual({ ok: true, warnings: [] });
    expect(await modeOf(paths.dir)).toBe(0o700);
  });

  it('narrows loose modes on the home and its secret files, with a warning each', async () => {
    const paths = resolveHomePaths({ IRIS_HOME: join(dir, 'home') });
    await mkdir(paths.dir, { mode: 0o755 });
    await chmod(paths.dir, 0o755);
    for (const file of [paths.configPath, paths.envPath, paths.statePath]) {
      await writeFile(file, '');
      await chmod(file, 0o644);
    }
    const result = await prepareHome(paths);
    expect(result.ok && result.warnings).toEqual([
      `narrowed the permissions of ${paths.dir} from 0755 to 0700`,
      `narrowed the permissions of ${paths.configPath} from 0644 to 0600`,
      `narrowed the permissions of ${paths.envPath} from 0644 to 0600`,
      `narrowed the permissions of ${paths.statePath} from 0644 to 0600`,
    ]);
    expect(await modeOf(paths.dir)).toBe(0o700);
    expect(await modeOf(paths.envPath)).toBe(0o600);
    expect(await prepareHome(paths)).toEqual({ ok: true, warnings: [] });
  });

  it('leaves a stricter mode alone', async () => {
    const paths = resolveHomePaths({ IRIS_HOME: join(dir, 'home') });
    await mkdir(paths.dir);
    await writeFile(paths.configPath, '');
    await chmod(paths.configPath, 0o400);
    expect(await prepareHome(paths)).toMatchObject({ ok: true });
    expect(await modeOf(paths.configPath)).toBe(0o400);
  });

  it('fails with home_unusable when IRIS_HOME is a file', async () => {
    const file = join(dir, 'not-a-dir');
    await writeFile(file, 'x');
    const result = await prepareHome(resolveHomePaths({ IRIS_HOME: file }));
    expect(result).toEqual({
      ok: false,
      error: { code: 'home_unusable', message: `cannot use IRIS_HOME ${file}: it is not a directory` },
    });
  });

  it('fails with home_unusable when the home cannot be created', async () => {
    const file = join(dir, 'file');
    await writeFile(file, 'x');
    const result = await prepareHome(resolveHomePaths({ IRIS_HOME: join(file, 'home') }));
    expect(result.ok ? '' : result.error.code).toBe('home_unusable');
    expect(result.ok ? '' : result.error.message).toMatch(/^cannot use IRIS_HOME .*\/file\/home: ENOTDIR/);
  });
});
