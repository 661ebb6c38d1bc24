// The home and the modes of what it holds. The rules are home.ts's (0700 home, 0600 secrets, not a
// shared folder), but where every other command narrows a loose mode, the doctor only reports it
// with the chmod that fixes it. Pure: what stat said in, checks out.
import { fail, ok, shellWord, warn, type CheckResult } from '../types.js';

export type HomeFacts =
  | { readonly kind: 'missing'; readonly dir: string }
  | { readonly kind: 'not_directory'; readonly dir: string }
  /** stat or access failed (EACCES…). */
  | { readonly kind: 'unusable'; readonly dir: string; readonly error: string }
  | { readonly kind: 'directory'; readonly dir: string; readonly mode: number };

export type PathFacts = {
  /** As shown: `config.yaml`, `logs`. */
  readonly label: string;
  readonly path: string;
  readonly want: 'file' | 'directory';
  /** Undefined: not there (created on first use). */
  readonly found?: { readonly type: 'file' | 'directory' | 'other'; readonly mode: number };
};

export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

/** `0644`: the permission bits. */
export function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8).padStart(3, '0')}`;
}

/** `1777`: with the sticky, setuid and setgid bits, as prepareHome words it. */
function fullMode(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0');
}

const ID = 'home';

export function checkHome(facts: HomeFacts): CheckResult {
  const { dir } = facts;
  switch (facts.kind) {
    case 'missing':
      return warn(ID, ID, `${dir} does not exist yet`, 'iris setup creates it (mode 0700), as does any iris command that writes');
    case 'not_directory':
      return fail(ID, ID, `${dir} is not a directory`, 'point IRIS_HOME at a private folder, or move the file aside');
    case 'unusable':
      return fail(ID, ID, `cannot use ${dir}: ${facts.error}`, `make it yours and private (chmod 700 ${shellWord(dir)}), or point IRIS_HOME at a private folder`);
    case 'directory':
      break;
  }
  const { mode } = facts;
  if (mode & 0o1000 || mode & 0o002) {
    return fail(ID, ID, `${dir} is shared (mode ${fullMode(mode)}): anyone may add files to it`, 'point IRIS_HOME at a private folder (the default is ~/.iris)');
  }
  if (mode & 0o077) {
    return fail(ID, ID, `${dir} has mode ${octal(mode)}, not ${octal(DIR_MODE)}`, `chmod 700 ${shellWord(dir)}`);
  }
  return ok(ID, ID, `${dir} (mode ${octal(mode)})`);
}

const wanted = (facts: PathFacts) => (facts.want === 'file' ? FILE_MODE : DIR_MODE);

export function checkPermissions(paths: readonly PathFacts[]): CheckResult {
  const id = 'permissions';
  const present = paths.filter((p) => p.found);
  const wrongType = present.filter((p) => p.found?.type !== p.want);
  const loose = present.filter((p) => p.found?.type === p.want && ((p.found?.mode ?? 0) & 0o777 & ~wanted(p)) !== 0);
  if (wrongType.length > 0) {
    const first = wrongType[0] as PathFacts;
    return fail(id, id, `${first.path} is not a ${first.want}`, `move ${shellWord(first.path)} aside; Iris creates a new one`);
  }
  if (loose.length > 0) {
    const finding = loose.map((p) => `${p.label} is ${octal(p.found?.mode ?? 0)} (want ${octal(wanted(p))})`).join(', ');
    const chmod = (mode: number, list: readonly PathFacts[]) =>
      list.length > 0 ? [`chmod ${mode.toString(8)} ${list.map((p) => shellWord(p.path)).join(' ')}`] : [];
    const fix = [
      ...chmod(FILE_MODE, loose.filter((p) => p.want === 'file')),
      ...chmod(DIR_MODE, loose.filter((p) => p.want === 'directory')),
    ].join(' && ');
    return fail(id, id, finding, fix);
  }
  if (present.length === 0) return ok(id, id, 'nothing to check yet (no config.yaml, .env, state.db or logs)');
  return ok(id, id, `owner-only: ${present.map((p) => p.label).join(', ')}`);
}
