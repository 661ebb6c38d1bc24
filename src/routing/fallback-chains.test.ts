import { describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validate.js';
import { parseConfigText, serializeDocument } from '../config/yaml-document.js';
import { checkFallbackValue, readFallbacks, setFallbackList, setFallbackModel } from './fallback-chains.js';

function doc(text: string) {
  const parsed = parseConfigText(text, 'config.yaml');
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.doc;
}

const VISION = ['auxiliary', 'vision', 'fallback_chain'];

describe('checkFallbackValue', () => {
  it('accepts entries config.yaml accepts', () => {
    expect(checkFallbackValue(VISION, [{ provider: 'openai', model: 'a' }, { provider: 'anthropic', model: 'b', key_env: 'MY_KEY' }])).toEqual({ ok: true });
    expect(checkFallbackValue(['fallback_model'], '')).toEqual({ ok: true });
    expect(checkFallbackValue(['fallback_model'], 'openai/gpt-5.1')).toEqual({ ok: true });
  });

  it("refuses with the validator's own words", () => {
    expect(checkFallbackValue(VISION, [{ provider: 'openai' }])).toEqual({
      ok: false,
      error: { code: 'invalid_value', message: 'auxiliary.vision.fallback_chain.0.model: missing (allowed: a non-empty string)' },
    });
    expect(checkFallbackValue(['fallback_providers'], 'openai/x')).toEqual({
      ok: false,
      error: { code: 'invalid_value', message: 'fallback_providers: "openai/x" is not valid (allowed: a list)' },
    });
    expect(checkFallbackValue(['fallback_providers'], [{ provider: 'openai', model: 'm', key_env: 'bad var' }])).toEqual({
      ok: false,
      error: { code: 'invalid_value', message: 'fallback_providers.0.key_env: "bad var" is not valid (allowed: a variable name (letters, digits and _))' },
    });
  });

  it('refuses an unknown provider and a key no entry has', () => {
    expect(checkFallbackValue(VISION, [{ provider: 'nope', model: 'm' }])).toEqual({
      ok: false,
      error: { code: 'invalid_value', message: 'auxiliary.vision.fallback_chain.0.provider: unknown provider "nope" (providers: openrouter, openai, anthropic, cloud-hosted, custom)' },
    });
    expect(checkFallbackValue(['fallback_model'], 'nope/m')).toEqual({
      ok: false,
      error: { code: 'invalid_value', message: 'fallback_model: unknown provider "nope" (providers: openrouter, openai, anthropic, cloud-hosted, custom)' },
    });
    expect(checkFallbackValue(VISION, [{ provider: 'openai', model: 'm', api_key: 'sk-x' }])).toEqual({
      ok: false,
      error: { code: 'invalid_value', message: 'auxiliary.vision.fallback_chain.0.api_key: unknown key (a fallback entry has provider, model, base_url, key_env and api_mode)' },
    });
  });
});

describe('setFallbackList', () => {
  it("writes a task's chain beside its other keys and keeps every comment", () => {
    const d = doc('# top\nmodel: {provider: openai, default: m}\n# aux comment\nauxiliary:\n  vision:\n    # keep me\n    provider: auto\n');
    expect(setFallbackList(d, { kind: 'task', task: 'vision' }, [{ provider: 'anthropic', model: 'claude-x' }])).toEqual({ ok: true, path: 'auxiliary.vision.fallback_chain', count: 1 });
    expect(serializeDocument(d)).toBe(
      '# top\nmodel: { provider: openai, default: m }\n# aux comment\nauxiliary:\n  vision:\n    # keep me\n    provider: auto\n    fallback_chain:\n      - provider: anthropic\n        model: claude-x\n',
    );
  });

  it('replaces the global list in place, its comment kept, and adds none for an empty list', () => {
    const d = doc('model: {provider: openai, default: m}\n# backups\nfallback_providers:\n  - provider: openai\n    model: old\n# after\napproval_mode: manual\n');
    setFallbackList(d, { kind: 'global' }, [{ provider: 'openai', model: 'new' }, { provider: 'anthropic', model: 'two' }]);
    expect(serializeDocument(d)).toBe(
      'model: { provider: openai, default: m }\n# backups\nfallback_providers:\n  - provider: openai\n    model: new\n  - provider: anthropic\n    model: two\n# after\napproval_mode: manual\n',
    );
    const empty = doc('# only\nmodel: ""\n');
    expect(setFallbackList(empty, { kind: 'task', task: 'curator' }, [])).toEqual({ ok: true, path: 'auxiliary.curator.fallback_chain', count: 0 });
    expect(serializeDocument(empty)).toBe('# only\nmodel: ""\n');
  });

  it('writes nothing when the list is refused or a parent is not a mapping', () => {
    const d = doc('auxiliary: [1]\n');
    expect(setFallbackList(d, { kind: 'task', task: 'vision' }, [{ provider: 'openai', model: 'm' }])).toEqual({
      ok: false,
      error: { code: 'not_a_mapping', message: 'auxiliary in config.yaml is not a mapping; fix the file first' },
    });
    const bad = doc('model: ""\n');
    expect(setFallbackList(bad, { kind: 'global' }, [{ provider: '', model: 'm' }]).ok).toBe(false);
    expect(serializeDocument(bad)).toBe('model: ""\n');
  });

  it('reads back what routing reads', () => {
    const d = doc('fallback_model: openai/x\n');
    setFallbackList(d, { kind: 'task', task: 'mcp' }, [{ provider: 'openai', model: 'a', base_url: 'http://h/v1' }]);
    setFallbackModel(d, { provider: 'anthropic', model: 'b' });
    const view = readFallbacks(validateConfig(d.toJS()).config);
    expect(view.tasks.find((t) => t.task === 'mcp')).toEqual({ task: 'mcp', name: 'MCP', fallback_chain: [{ provider: 'openai', model: 'a', base_url: 'http://h/v1' }] });
    expect(view.tasks).toHaveLength(11);
    expect(view.fallback_providers).toEqual([]);
    expect(view.fallback_model).toEqual({ provider: 'anthropic', model: 'b' });
  });
});
