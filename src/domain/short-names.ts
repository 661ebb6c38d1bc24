// Built-in short model names (`/model sonnet`). User aliases shadow these. Each points at the
// native provider's current model of that family.
import type { ProviderId } from './provider-ids.js';

export const BUILTIN_SHORT_NAMES: Readonly<Record<string, { provider: ProviderId; model: string }>> =
  Object.freeze({
    opus: { provider: 'anthropic', model: 'claude-opus-4-7' },
    sonnet: { provider: 'anthropic', model: 'claude-sonnet-4-6' },
    haiku: { provider: 'anthropic', model: 'claude-haiku-4-5' },
    gpt5: { provider: 'openai', model: 'gpt-5.1' },
    'gpt5-mini': { provider: 'openai', model: 'gpt-5-mini' },
    codex: { provider: 'openai', model: 'gpt-5.1-codex' },
  });
