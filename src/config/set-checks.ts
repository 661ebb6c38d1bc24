// What `iris config set` refuses before writing (unless --force): a key the schema does not know
// (`model.provder`), and a provider field naming no provider (`auxiliary.vision.provider nope`).
// Both were written with exit 0 before, and then silently did nothing. Pure.
import { PROVIDER_IDS } from '../domain/provider-ids.js';
import { nearest } from './nearest.js';
import { configSchema } from './schema.js';
import { childSchema, knownKeysAt } from './schema-walk.js';
import type { Scalar } from './yaml-document.js';

export type SetCheck = { readonly ok: true } | { readonly ok: false; readonly code: 'invalid_key' | 'invalid_value'; readonly message: string };

const FORCE_HINT = 'pass --force to write it anyway';

/**
 * `unknown config key model.provder; did you mean model.provider?` when the schema does not know
 * `path` (in the schema's own names), else undefined: `config set` and `config get` say it alike.
 */
export function unknownKeyMessage(path: readonly string[]): string | undefined {
  let schema = configSchema as Parameters<typeof childSchema>[0] | undefined;
  for (let depth = 0; depth < path.length; depth += 1) {
    const segment = path[depth] ?? '';
    const next = schema ? childSchema(schema, segment) : undefined;
    if (!next) {
      const parent = path.slice(0, depth);
      const guess = nearest(segment, knownKeysAt(configSchema, parent));
      return `unknown config key ${path.join('.')}${guess ? `; did you mean ${[...parent, guess].join('.')}?` : ''}`;
    }
    schema = next;
  }
  return undefined;
}

/** `path` in the schema's own names (normalizeKeyPath). */
export function checkSetTarget(path: readonly string[], value: Scalar): SetCheck {
  const unknown = unknownKeyMessage(path);
  if (unknown !== undefined) return { ok: false, code: 'invalid_key', message: `${unknown} (${FORCE_HINT}, e.g. for an extension's key)` };
  if (path.at(-1) === 'provider' && typeof value === 'string') {
    // Aux slots (and only they) may say `auto`; an empty provider is the schema's business.
    const allowed: readonly string[] = path[0] === 'auxiliary' && path.length === 3 ? ['auto', ...PROVIDER_IDS] : PROVIDER_IDS;
    const wanted = value.trim();
    if (wanted !== '' && !allowed.includes(wanted)) {
      const guess = nearest(wanted, allowed);
      return {
        ok: false,
        code: 'invalid_value',
        message: `unknown provider "${wanted}" for ${path.join('.')}${guess ? `; did you mean ${guess}?` : ''} (providers: ${allowed.join(', ')}; ${FORCE_HINT})`,
      };
    }
  }
  return { ok: true };
}
