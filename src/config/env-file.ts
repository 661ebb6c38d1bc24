// $IRIS_HOME/.env: the secrets store. KEY=value lines (an `export ` prefix, quotes and comments
// are understood). Values are read into a map that never overrides the process environment, and
// written atomically at 0600 under a lock; callers never print them.
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from './atomic-write.js';
import { withFileLock } from './file-lock.js';
import type { Env, HomePaths } from './home.js';
import { errnoMessage, fail, type Result } from './result.js';

const LINE = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/;

function unquote(rawValue: string): string {
  const value = rawValue.trim();
  if (value.startsWith("'")) {
    const end = value.indexOf("'", 1);
    return end > 0 ? value.slice(1, end) : value.slice(1);
  }
  if (value.startsWith('"')) {
    let out = '';
    for (let i = 1; i < value.length; i++) {
      const c = value[i];
      if (c === '"') break;
      if (c === '\\' && i + 1 < value.length) {
        const next = value[++i];
        out += next === 'n' ? '\n' : next === 'r' ? '\r' : next === 't' ? '\t' : next;
      } else out += c;
    }
    return out;
  }
  // Unquoted: an inline comment starts at a `#` preceded by whitespace.
  return value.replace(/\s+#.*$/, '');
}

export function parseEnvText(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*(#|$)/.test(line)) continue;
    const match = LINE.exec(line);
    if (match) values.set(match[1] as string, unquote(match[2] as string));
  }
  return values;
}

function quoteForEnv(value: string): string {
  if (/^[A-Za-z0-9_\-./:@+=,~%^]*$/.test(value)) return value;
  const escaped = value
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t');
  return `"${escaped}"`;
}

/** The text with `key` set to `value`: the first assignment is replaced in place, repeats dropped. */
export function setEnvText(text: string, key: string, value: string): string {
  const lines = text === '' ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/);
  const assignment = `${key}=${quoteForEnv(value)}`;
  let written = false;
  const out: string[] = [];
  for (const line of lines) {
    const match = LINE.exec(line);
    if (match && match[1] === key && !/^\s*#/.test(line)) {
      if (!written) out.push(assignment);
      written = true;
    } else out.push(line);
  }
  if (!written) out.push(assignment);
  return `${out.join('\n')}\n`;
}

export async function readEnvFile(paths: HomePaths): Promise<Result<{ values: Map<string, string> }>> {
  try {
    return { ok: true, values: parseEnvText(await readFile(paths.envPath, 'utf8')) };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, values: new Map() };
    return fail('io_error', `cannot read ${paths.envPath}: ${errnoMessage(err)}`);
  }
}

/** The environment the service runs with: .env values, each overridden by the process's own. */
export function effectiveEnv(fileValues: ReadonlyMap<string, string>, processEnv: Env): Env {
  const merged: Record<string, string | undefined> = Object.fromEntries(fileValues);
  for (const [key, value] of Object.entries(processEnv)) {
    if (value !== undefined) merged[key] = value;
  }
  return Object.freeze(merged);
}

/** The text without any assignment of `key` (comments kept). */
export function unsetEnvText(text: string, key: string): string {
  const lines = text === '' ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/);
  const kept = lines.filter((line) => {
    const match = LINE.exec(line);
    return !(match && match[1] === key && !/^\s*#/.test(line));
  });
  return kept.length === 0 ? '' : `${kept.join('\n')}\n`;
}

export function setEnvValue(paths: HomePaths, key: string, value: string): Promise<Result<object>> {
  return editEnvFile(paths, (text) => setEnvText(text, key, value));
}

/** Removes `key` from .env; true in `removed` when it was there. */
export async function unsetEnvValue(paths: HomePaths, key: string): Promise<Result<{ removed: boolean }>> {
  let removed = false;
  const result = await editEnvFile(paths, (text) => {
    const next = unsetEnvText(text, key);
    removed = next !== text;
    return next;
  });
  return result.ok ? { ok: true, removed } : result;
}

/** Reads, edits and atomically rewrites .env (mode 0600) under its lock. */
async function editEnvFile(paths: HomePaths, edit: (text: string) => string): Promise<Result<object>> {
  try {
    const outcome = await withFileLock(`${paths.envPath}.lock`, async () => {
      let text = '';
      try {
        text = await readFile(paths.envPath, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      const next = edit(text);
      if (next !== text) await writeFileAtomic(paths.envPath, next, 0o600);
    });
    if (outcome.ok) return { ok: true };
    return fail('lock_timeout', `.env is locked by another process; if none is running, remove ${paths.envPath}.lock`);
  } catch (err) {
    return fail('io_error', `cannot write ${paths.envPath}: ${errnoMessage(err)}`);
  }
}
