// The one reader and writer of config.yaml. Reads never fail over a bad value (see validate.ts);
// writes happen under a lock, re-read the file first, and replace it atomically, so concurrent
// writers (the dashboard and the CLI) each keep their change.
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from './atomic-write.js';
import { withFileLock, type LockOptions } from './file-lock.js';
import type { HomePaths } from './home.js';
import { errnoMessage, fail, type Result } from './result.js';
import { validateConfig, type ValidatedConfig } from './validate.js';
import {
  documentData,
  parseConfigText,
  serializeDocument,
  STARTER_CONFIG,
  type ConfigDocument,
} from './yaml-document.js';

export type LoadedConfig = ValidatedConfig & {
  readonly path: string;
  /** False on a fresh install: nothing has been written yet. */
  readonly exists: boolean;
};

async function readDocument(
  path: string,
  whenMissing: string,
): Promise<Result<{ doc: ConfigDocument; exists: boolean }>> {
  let text: string;
  let exists = true;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      return fail('io_error', `cannot read ${path}: ${errnoMessage(err)}`);
    }
    text = whenMissing;
    exists = false;
  }
  const parsed = parseConfigText(text, path);
  return parsed.ok ? { ok: true, doc: parsed.doc, exists } : parsed;
}

export async function loadConfig(paths: HomePaths): Promise<Result<LoadedConfig>> {
  const read = await readDocument(paths.configPath, '');
  if (!read.ok) return read;
  const data = documentData(read.doc, paths.configPath);
  if (!data.ok) return data;
  return { ok: true, path: paths.configPath, exists: read.exists, ...validateConfig(data.data) };
}

export type ConfigEdit<T> = (doc: ConfigDocument) => Result<T>;

/**
 * Applies `edit` to the freshest config.yaml under the lock and writes the result. An edit that
 * fails writes nothing. A missing file starts from the starter config.
 */
export async function updateConfig<T extends object>(
  paths: HomePaths,
  edit: ConfigEdit<T>,
  lock: LockOptions = {},
): Promise<Result<T & { validated: ValidatedConfig }>> {
  try {
    const outcome = await withFileLock(
      `${paths.configPath}.lock`,
      async (): Promise<Result<T & { validated: ValidatedConfig }>> => {
        const read = await readDocument(paths.configPath, STARTER_CONFIG);
        if (!read.ok) return read;
        const before = documentData(read.doc, paths.configPath);
        if (!before.ok) return before;
        const edited = edit(read.doc);
        if (!edited.ok) return edited;
        await writeFileAtomic(paths.configPath, serializeDocument(read.doc), 0o600);
        return { ...edited, validated: validateConfig(read.doc.toJS()) };
      },
      lock,
    );
    if (outcome.ok) return outcome.value;
    return fail(
      'lock_timeout',
      `config.yaml is locked by another process (${outcome.holder || 'unknown'}); ` +
        `if none is running, remove ${paths.configPath}.lock`,
    );
  } catch (err) {
    return fail('io_error', `cannot write ${paths.configPath}: ${errnoMessage(err)}`);
  }
}
