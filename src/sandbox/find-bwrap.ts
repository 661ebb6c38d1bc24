// The sandbox's edges on disk: where `bwrap` is (looked up on PATH, as DECISIONS says), what the
// system folders are on this machine, and which /etc secrets exist to be covered.
import { accessSync, constants, lstatSync, readlinkSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ETC_SECRET_DIRS, ETC_SECRETS, type SystemPath } from './bwrap-argv.js';

export const BWRAP_MISSING = 'the sandbox needs bubblewrap: apt-get install bubblewrap';

/** The first executable `bwrap` on `path`, or undefined. */
export function findBwrap(path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'bwrap');
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

const SYSTEM_PATHS = ['/usr', '/bin', '/sbin', '/lib', '/lib64', '/lib32', '/libx32', '/etc'];

export function systemPaths(): SystemPath[] {
  const found: SystemPath[] = [];
  for (const path of SYSTEM_PATHS) {
    try {
      const info = lstatSync(path);
      if (info.isSymbolicLink()) found.push({ path, kind: 'symlink', target: readlinkSync(path) });
      else if (info.isDirectory()) found.push({ path, kind: 'dir' });
    } catch {
      // absent on this machine
    }
  }
  return found;
}

export function etcSecrets(): { files: string[]; dirs: string[] } {
  const exists = (path: string, dir: boolean) => {
    try {
      const info = lstatSync(path);
      return dir ? info.isDirectory() : info.isFile();
    } catch {
      return false;
    }
  };
  return { files: ETC_SECRETS.filter((p) => exists(p, false)), dirs: ETC_SECRET_DIRS.filter((p) => exists(p, true)) };
}
