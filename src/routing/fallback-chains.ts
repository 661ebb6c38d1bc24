// Reading and replacing the fallback lists routing walks after a slot's own route: each aux task's
// `fallback_chain` and the top-level `fallback_providers` (and `fallback_model`). The dashboard's
// PUT /api/model/fallbacks writes through here: a new list is checked by the config validator
// itself (so a list the page can write is one config.yaml accepts), then placed in the config
// Document, which keeps the user's comments.
import { isMap, isScalar, isSeq, type YAMLMap } from 'yaml';
import { fail, type Result } from '../config/result.js';
import type { Config, FallbackEntry } from '../config/schema.js';
import { formatProblem, validateConfig } from '../config/validate.js';
import type { ConfigDocument } from '../config/yaml-document.js';
import { isProviderId, PROVIDER_IDS } from '../domain/provider-ids.js';
import { AUX_TASKS, type AuxTaskId } from '../domain/slots.js';

/** One entry as the page sees it: the keys routing reads, nothing else (no stray secrets). */
export type FallbackView = {
  readonly provider: string;
  readonly model: string;
  readonly base_url?: string;
  readonly key_env?: string;
  readonly api_mode?: string;
};

export type FallbacksView = {
  readonly tasks: ReadonlyArray<{ readonly task: AuxTaskId; readonly name: string; readonly fallback_chain: readonly FallbackView[] }>;
  readonly fallback_providers: readonly FallbackView[];
  /** `''` when none; a `"<provider>/<model>"` string stays a string, as config.yaml holds it. */
  readonly fallback_model: string | FallbackView;
};

export function fallbackView(entry: FallbackEntry): FallbackView {
  return {
    provider: entry.provider,
    model: entry.model,
    ...(entry.base_url !== undefined ? { base_url: entry.base_url } : {}),
    ...(entry.key_env !== undefined ? { key_env: entry.key_env } : {}),
    ...(entry.api_mode !== undefined ? { api_mode: entry.api_mode } : {}),
  };
}

export function readFallbacks(config: Readonly<Config>): FallbacksView {
  const model = config.fallback_model;
  return {
    tasks: AUX_TASKS.map((spec) => ({ task: spec.id, name: spec.name, fallback_chain: config.auxiliary[spec.id].fallback_chain.map(fallbackView) })),
    fallback_providers: config.fallback_providers.map(fallbackView),
    fallback_model: typeof model === 'string' ? model : fallbackView(model),
  };
}

/** Where a list lives in config.yaml. */
export type FallbackPlace = { readonly kind: 'task'; readonly task: AuxTaskId } | { readonly kind: 'global' };

export function placePath(place: FallbackPlace): readonly string[] {
  return place.kind === 'task' ? ['auxiliary', place.task, 'fallback_chain'] : ['fallback_providers'];
}

function nest(path: readonly string[], value: unknown): Record<string, unknown> {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Record<string, unknown>;
}

function invalid(message: string): { ok: false; error: { code: 'invalid_value'; message: string } } {
  return fail('invalid_value', message) as { ok: false; error: { code: 'invalid_value'; message: string } };
}

/**
 * A list (or `fallback_model` value) as config.yaml would take it: what the validator reports for
 * it, word for word, or a key it does not know, or a provider no route can call.
 */
export function checkFallbackValue(path: readonly string[], value: unknown): Result<object> {
  const checked = validateConfig(nest(path, value));
  const problem = checked.problems[0];
  if (problem) return invalid(formatProblem(problem));
  const unknown = checked.unknownKeys[0];
  if (unknown) return invalid(`${unknown}: unknown key (a fallback entry has provider, model, base_url, key_env and api_mode)`);
  const entries = Array.isArray(value) ? value : typeof value === 'object' && value !== null ? [value] : [];
  for (const [i, entry] of entries.entries()) {
    const provider = (entry as { provider?: unknown }).provider;
    if (typeof provider === 'string' && !isProviderId(provider.trim())) {
      const at = Array.isArray(value) ? `${path.join('.')}.${i}` : path.join('.');
      return invalid(`${at}.provider: unknown provider "${provider}" (providers: ${PROVIDER_IDS.join(', ')})`);
    }
  }
  if (typeof value === 'string' && value !== '') {
    const provider = value.slice(0, value.indexOf('/'));
    if (!isProviderId(provider)) return invalid(`${path.join('.')}: unknown provider "${provider}" (providers: ${PROVIDER_IDS.join(', ')})`);
  }
  return { ok: true };
}

/**
 * Replaces the value at `path` (a list, or fallback_model's value) in the Document. The key keeps
 * its place and its comment; an empty list where there was none writes nothing.
 */
export function replaceFallbackValue(doc: ConfigDocument, path: readonly string[], value: unknown): Result<{ readonly changed: boolean }> {
  if (doc.contents === null) doc.contents = doc.createNode({});
  if (!isMap(doc.contents)) return fail('not_a_mapping', 'the top level of config.yaml is not a mapping; fix the file first');
  let node = doc.contents as YAMLMap<unknown, unknown>;
  for (const [i, key] of path.slice(0, -1).entries()) {
    const child = node.get(key, true);
    if (child === undefined || child === null || (isScalar(child) && (child.value === null || child.value === ''))) {
      if (Array.isArray(value) && value.length === 0) return { ok: true, changed: false };
      node.set(key, doc.createNode({}));
    }
    const next: unknown = node.get(key, true);
    if (!isMap(next)) return fail('not_a_mapping', `${path.slice(0, i + 1).join('.')} in config.yaml is not a mapping; fix the file first`);
    node = next;
  }
  const last = path[path.length - 1]!;
  const existing = node.get(last, true);
  if (existing === undefined && Array.isArray(value) && value.length === 0) return { ok: true, changed: false };
  const created = doc.createNode(value);
  // A list written as `[a, b]` stays on one line; block lists stay block.
  if (isSeq(created) && isSeq(existing) && existing.flow) created.flow = true;
  node.set(last, created);
  return { ok: true, changed: true };
}

/** Checks then writes one place's list: the edit `updateConfig` applies. */
export function setFallbackList(doc: ConfigDocument, place: FallbackPlace, entries: readonly unknown[]): Result<{ readonly path: string; readonly count: number }> {
  const path = placePath(place);
  const checked = checkFallbackValue(path, entries);
  if (!checked.ok) return checked;
  const written = replaceFallbackValue(doc, path, entries);
  return written.ok ? { ok: true, path: path.join('.'), count: entries.length } : written;
}

/** `fallback_model`: `''`, `"<provider>/<model>"` or an entry, checked like the lists. */
export function setFallbackModel(doc: ConfigDocument, value: unknown): Result<object> {
  const checked = checkFallbackValue(['fallback_model'], value);
  if (!checked.ok) return checked;
  return replaceFallbackValue(doc, ['fallback_model'], value);
}
