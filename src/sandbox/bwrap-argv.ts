// The bubblewrap command line for one sandboxed command, as a pure function of what the runner
// found on disk. Inside: the workspace read-write at its own path; the system folders read-only;
// a private /tmp, /proc and /dev; none of the home, Iris's home, ssh or gh config (the home is
// never mounted; where the workspace holds one of them, an empty tmpfs covers it); new user, pid,
// ipc and uts namespaces, and a new network namespace unless the network is shared; the process
// dies with its parent and starts a new session (no terminal to push keys into).
import { posix } from 'node:path';

/** A top-level system path and what it is on this machine (merged-/usr systems have symlinks). */
export type SystemPath = { readonly path: string; readonly kind: 'dir' } | { readonly path: string; readonly kind: 'symlink'; readonly target: string };

export type BwrapInput = {
  readonly workspace: string;
  readonly cwd: string;
  readonly network: boolean;
  /** `/usr`, `/bin`, `/lib*`, `/sbin`, `/etc` as found (missing ones are left out). */
  readonly systemPaths: readonly SystemPath[];
  /** Folders that must not be seen even when the workspace holds them: $HOME, $IRIS_HOME, ~/.ssh, … */
  readonly hidden: readonly string[];
  /** Which of ETC_SECRETS and ETC_SECRET_DIRS exist here (a mount point must exist in the read-only /etc). */
  readonly etcSecrets: { readonly files: readonly string[]; readonly dirs: readonly string[] };
  readonly shell: string;
  readonly command: string;
};

/**
 * Files of /etc that hold secrets (password hashes, host keys, TLS keys): a gateway running as
 * root would otherwise read them through the read-only /etc, since the user namespace maps the
 * sandbox's user to its own.
 */
export const ETC_SECRETS = ['/etc/shadow', '/etc/shadow-', '/etc/gshadow', '/etc/gshadow-', '/etc/sudoers', '/etc/security/opasswd'] as const;
export const ETC_SECRET_DIRS = ['/etc/ssh', '/etc/ssl/private', '/etc/sudoers.d', '/etc/iris'] as const;

const within = (path: string, dir: string): boolean => path === dir || path.startsWith(dir.endsWith('/') ? dir : `${dir}/`);

/**
 * Why the workspace cannot be sandboxed, or undefined: inside Iris's home (its secrets and state),
 * the user's home itself (everything in it would be shown), or a system folder.
 */
export function workspaceProblem(workspace: string, homes: { readonly home: string | undefined; readonly irisHomes: readonly string[] }): string | undefined {
  const iris = homes.irisHomes.find((dir) => within(workspace, dir));
  if (iris) return `the workspace ${workspace} is inside Iris's home ${iris}, which the sandbox never shows; set agent.workspace to a project folder`;
  if (homes.home !== undefined && workspace === homes.home) return `the workspace ${workspace} is the home folder, which the sandbox never shows; set agent.workspace to a project folder`;
  if (workspace === '/' || ['/usr', '/etc', '/bin', '/sbin', '/lib', '/lib64', '/proc', '/dev', '/sys', '/boot'].some((dir) => within(workspace, dir))) {
    return `the workspace ${workspace} is a system folder; set agent.workspace to a project folder`;
  }
  return undefined;
}

export function bwrapArgv(input: BwrapInput): string[] {
  const argv = ['--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
  if (!input.network) argv.push('--unshare-net');
  argv.push('--die-with-parent', '--new-session', '--cap-drop', 'ALL');
  for (const entry of input.systemPaths) {
    if (entry.kind === 'symlink') argv.push('--symlink', entry.target, entry.path);
    else argv.push('--ro-bind', entry.path, entry.path);
  }
  for (const file of input.etcSecrets.files) argv.push('--ro-bind', '/dev/null', file);
  for (const dir of input.etcSecrets.dirs) argv.push('--tmpfs', dir);
  argv.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  argv.push('--bind', input.workspace, input.workspace);
  // Deepest last, so a hidden folder inside another hidden one is covered too.
  const inside = input.hidden.filter((dir) => within(dir, input.workspace) && dir !== input.workspace).sort((a, b) => a.length - b.length);
  for (const dir of inside) argv.push('--tmpfs', posix.normalize(dir));
  argv.push('--chdir', input.cwd, '--', input.shell, '-c', input.command);
  return argv;
}

/** The environment inside: a short allowlist, HOME set to the workspace, plus the names a route passes. */
export function sandboxEnv(env: Readonly<Record<string, string | undefined>>, workspace: string, passEnv: readonly string[]): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'LANG', 'LC_ALL', 'TERM', 'TZ', ...passEnv]) {
    const value = env[name];
    if (value !== undefined) out[name] = value;
  }
  out.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  out.HOME = workspace;
  out.TMPDIR = '/tmp';
  return out;
}
