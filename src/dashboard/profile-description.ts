// A profile's description and whether a model wrote it. Both live at the top level of the
// profile's config.yaml, where `iris profile describe` keeps the description:
//
//   description: A work profile for reviewing pull requests …
//   description_generated: true
//
// Auto-generate sets the mark; a person's edit clears it. `iris -p <name> config get
// description_generated` reads it too.
import { isMap } from 'yaml';
import { resolveHomePaths } from '../config/home.js';
import type { Result } from '../config/result.js';
import { loadConfig, updateConfig } from '../config/store.js';
import { setScalarIn, type ConfigDocument } from '../config/yaml-document.js';
import { DESCRIPTION_GENERATED_KEY } from '../profiles/describe.js';
import { profileHomeDir } from '../profiles/names.js';

export const GENERATED_KEY = DESCRIPTION_GENERATED_KEY;

/** Long enough for any paragraph the describer writes (400 tokens); a person's edit is held to it too. */
export const MAX_DESCRIPTION_CHARS = 2000;

export type StoredDescription = { readonly description: string; readonly generated: boolean };

const homeOf = (baseDir: string, name: string) => resolveHomePaths({ IRIS_HOME: profileHomeDir(baseDir, name) });

/** The description and its mark ('' and false when none, or when config.yaml cannot be read). */
export async function readDescription(baseDir: string, name: string): Promise<StoredDescription> {
  const loaded = await loadConfig(homeOf(baseDir, name));
  if (!loaded.ok) return { description: '', generated: false };
  const description = loaded.config.description ?? '';
  // A mark without a description means nothing: shown as not generated.
  return { description, generated: description !== '' && (loaded.config as Record<string, unknown>)[GENERATED_KEY] === true };
}

/** One paragraph, as the describer's answers are stored: whitespace runs (newlines too) become single spaces. */
export function normalizeDescription(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function clearMark(doc: ConfigDocument): Result<object> {
  if (isMap(doc.contents)) doc.contents.delete(GENERATED_KEY);
  return { ok: true };
}

/** A person's description (normalized; '' removes it), which clears the generated mark. */
export async function writeDescription(baseDir: string, name: string, description: string): Promise<Result<object>> {
  return updateConfig(homeOf(baseDir, name), (doc) => {
    if (description === '') {
      if (isMap(doc.contents)) doc.contents.delete('description');
      return clearMark(doc);
    }
    const set = setScalarIn(doc, ['description'], description);
    return set.ok ? clearMark(doc) : set;
  });
}
