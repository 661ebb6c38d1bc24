// The service home ($IRIS_HOME, default ~/.iris): where it is, and making it safe to use.
// The home is 0700 and the files that hold secrets are 0600; a looser mode found on disk is
// narrowed with a warning rather than refused, since an editor or a copy often widens it.
import { access, chmod, constants, mkdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { errnoMessage, fail, type Result } from './result.js';

export type HomePaths = {
  readonly dir: string;
  readonly configPath: string;
  readonly envPath: string;
  readonly statePath: string;
  readonly logsDir: string;
};

export type Env = Readonly<Record<string, string | undefined>>;

export function resolveHomePaths(env: Env): HomePaths {
  const dir = resolve(env.IRIS_HOME?.trim() || join(homedir(), '.iris'));
  return {
    dir,
    configPath: join(dir, 'config.yaml'),
    envPath: join(dir, '.env'),
    statePath: join(dir, 'state.db'),
    logsDir: join(dir, 'logs'),
  };
}

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8)}`;
}

async function narrow(path: string, wanted: number, warnings: string[]): Promise<void> {
  let mode: number;
  try {
    const info = await stat(path);
    // Only regular files: a directory or device where config.yaml should be is reported by
    // the reader, not silently chmodded.
    if (!info.isFile()) return;
    mode = info.mode;
  } catch {
    return; // not there yet: it is created with the right mode
  }
  if ((mode & 0o777 & ~wanted) === 0) return;
  await chmod(path, wanted);
  warnings.push(`narrowed the permissions of ${path} from ${octal(mode)} to ${octal(wanted)}`);
}

/**
 * Creates the home on first use and narrows loose modes. Fails (as a value) when the home is not
 * a usable directory, naming the path and the reason.
 */
export async function prepareHome(
  paths: HomePaths,
): Promise<Result<{ warnings: readonly string[] }>> {
  const warnings: string[] = [];
  try {
    const info = await stat(paths.dir).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
    if (!info) {
      await mkdir(paths.dir, { recursive: true, mode: DIR_MODE });
      await chmod(paths.dir, DIR_MODE); // mkdir's mode is filtered by the umask
    } else if (!info.isDirectory()) {
      return fail('home_unusable', `cannot use IRIS_HOME ${paths.dir}: it is not a directory`);
    } else if (info.mode & 0o1000 || (info.mode & 0o002) !== 0) {
      // A sticky or world-writable folder (/tmp, a shared drop) is not ours to lock down.
      return fail(
        'home_unusable',
        `cannot use IRIS_HOME ${paths.dir}: it is shared (mode ${(info.mode & 0o7777).toString(8).padStart(4, '0')}); point IRIS_HOME at a private folder`,
      );
    } else {
      await access(paths.dir, constants.R_OK | constants.W_OK | constants.X_OK);
      if ((info.mode & 0o077) !== 0) {
        await chmod(paths.dir, (info.mode & 0o7000) | DIR_MODE);
        warnings.push(`narrowed the permissions of ${paths.dir} from ${octal(info.mode)} to ${octal(DIR_MODE)}`);
      }
    }
    for (const file of [paths.configPath, paths.envPath, paths.statePath]) {
      await narrow(file, FILE_MODE, warnings);
    }
    return { ok: true, warnings };
  } catch (err) {
    return fail('home_unusable', `cannot use IRIS_HOME ${paths.dir}: ${errnoMessage(err)}`);
  }
}
