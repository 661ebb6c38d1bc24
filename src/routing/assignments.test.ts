import { describe, expect, it } from 'vitest';
import { parseConfigText, serializeDocument } from '../config/yaml-document.js';
import { setAuxModel, setMainModel } from './assignments.js';
import type { Doc } from '../../test/helpers/documents.js';

function doc(text: string) {
  const parsed = parseConfigText(text, 'config.yaml');
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.doc;
}

describe('setMainModel', () => {
  it('turns model: "" into provider and default', () => {
    const d = doc("# mine\nmodel: ''\n");
    const change = setMainModel(d, 'openrouter', 'anthropic/claude-sonnet-4.5');
    expect(change).toEqual({
      ok: true,
      previous: { provider: '', model: '' },
      provider: 'openrouter',
      model: 'anthropic/claude-sonnet-4.5',
      dropped: [],
      cleared: [],
      staleAux: [],
    });
    expect(serializeDocument(d)).toBe('# mine\nmodel:\n  provider: openrouter\n  default: anthropic/claude-sonnet-4.5\n');
  });

  it('on a provider switch clears base_url, drops what belonged to the old provider, and reports stale aux pins', () => {
    const d = doc(
      [
        'model:',
        '  provider: cloud-hosted # my resource',
        '  default: my-dep',
        '  base_url: https://r.openai.azure.com/openai/v1',
        '  api_mode: chat_completions',
        '  auth_mode: identity_token',
        '  context_length: 128000',
        'auxiliary:',
        '  vision: { provider: cloud-hosted, model: vis-dep, timeout: 90 }',
        '  curator: { provider: openai, model: gpt-5.1 }',
        '',
      ].join('\n'),
    );
    const change = setMainModel(d, 'openai', 'gpt-5.1');
    expect(change).toMatchObject({
      ok: true,
      previous: { provider: 'cloud-hosted', model: 'my-dep' },
      dropped: ['model.api_mode', 'model.auth_mode', 'model.context_length'],
      staleAux: [{ task: 'vision', provider: 'cloud-hosted', model: 'vis-dep' }],
    });
    expect((d.toJS() as Doc).model).toEqual({ provider: 'openai', default: 'gpt-5.1', base_url: '' });
    expect(serializeDocument(d)).toContain('provider: openai # my resource');
  });

  it('keeps api_mode and base_url when only the model changes, but drops context_length', () => {
    const d = doc('model:\n  provider: custom\n  default: a\n  base_url: http://localhost:8080/v1\n  api_mode: chat_completions\n  context_length: 8192\n');
    expect(setMainModel(d, 'custom', 'b')).toMatchObject({ ok: true, dropped: ['model.context_length'] });
    expect((d.toJS() as Doc).model).toEqual({ provider: 'custom', default: 'b', base_url: 'http://localhost:8080/v1', api_mode: 'chat_completions' });
  });

  it('replaces an older picker model.model', () => {
    const d = doc('model:\n  provider: openai\n  model: gpt-4.1\n');
    expect(setMainModel(d, 'openai', 'gpt-5.1')).toMatchObject({ ok: true, previous: { provider: 'openai', model: 'gpt-4.1' }, dropped: ['model.model'] });
    expect((d.toJS() as Doc).model).toEqual({ provider: 'openai', default: 'gpt-5.1' });
  });

  it.each([
    ['', 'm', 'the main model needs a provider and a model'],
    ['openai', ' ', 'the main model needs a provider and a model'],
    ['nope', 'm', 'unknown provider "nope"'],
  ])('refuses provider %j model %j', (provider, model, message) => {
    const d = doc("model: ''\n");
    expect(setMainModel(d, provider, model)).toEqual({ ok: false, error: { code: 'invalid_value', message } });
    expect(serializeDocument(d)).toBe("model: ''\n");
  });
});

describe('setAuxModel', () => {
  it('sets one task and keeps its other fields', () => {
    const d = doc('auxiliary:\n  vision:\n    timeout: 90 # slow images\n');
    expect(setAuxModel(d, { kind: 'one', task: 'vision' }, 'openai', 'gpt-4.1')).toEqual({ ok: true, tasks: ['vision'], cleared: {}, provider: 'openai', model: 'gpt-4.1', reset: false });
    expect(serializeDocument(d)).toBe('auxiliary:\n  vision:\n    timeout: 90 # slow images\n    provider: openai\n    model: gpt-4.1\n');
  });

  it('sets all 11 for the empty task, and resets all 11 to auto keeping timeouts', () => {
    const d = doc('auxiliary:\n  curator: { timeout: 900 }\n');
    const all = setAuxModel(d, { kind: 'all' }, 'openrouter', 'google/gemini-2.5-flash');
    expect(all.ok && all.tasks).toHaveLength(11);
    const data = (d.toJS() as Doc).auxiliary as Record<string, Record<string, unknown>>;
    expect(Object.values(data).every((t) => t.provider === 'openrouter' && t.model === 'google/gemini-2.5-flash')).toBe(true);
    expect(setAuxModel(d, { kind: 'reset' }, '', '')).toMatchObject({ ok: true, reset: true, provider: 'auto', model: '' });
    const reset = (d.toJS() as Doc).auxiliary as Record<string, Record<string, unknown>>;
    expect(Object.keys(reset)).toHaveLength(11);
    expect(reset.curator).toEqual({ timeout: 900, provider: 'auto', model: '' });
    expect(Object.values(reset).every((t) => t.provider === 'auto' && t.model === '')).toBe(true);
  });

  it.each([
    ['nope', 'openai', 'm', 'unknown task "nope" (tasks: vision, web_extract, compression, skills_hub, approval, mcp, title_generation, triage_specifier, kanban_decomposer, profile_describer, curator)'],
    ['vision', '', 'm', 'an auxiliary assignment needs a provider'],
    ['vision', 'acme', 'm', 'unknown provider "acme"'],
  ])('refuses task %j provider %j', (task, provider, model, message) => {
    expect(setAuxModel(doc(''), { kind: 'one', task }, provider, model)).toEqual({ ok: false, error: { code: 'invalid_value', message } });
  });
});

describe('provider switches on aux slots', () => {
  it('clears the old provider key, endpoint, key variable and wire format', () => {
    const d = doc('auxiliary:\n  vision: { provider: openai, model: gpt-4.1, api_key: sk-proj-x, base_url: https://proxy/v1, key_env: TEAM_KEY, api_mode: codex_responses, timeout: 90 }\n');
    expect(setAuxModel(d, { kind: 'one', task: 'vision' }, 'openrouter', 'google/gemini-2.5-flash')).toMatchObject({
      ok: true,
      cleared: { vision: ['api_key', 'base_url', 'key_env', 'api_mode'] },
    });
    expect((d.toJS() as Doc).auxiliary?.vision).toEqual({ provider: 'openrouter', model: 'google/gemini-2.5-flash', api_key: '', base_url: '', timeout: 90 });
  });

  it('keeps them when the provider stays the same', () => {
    const d = doc('auxiliary:\n  vision: { provider: openai, model: gpt-4.1, api_key: sk-proj-x }\n');
    expect(setAuxModel(d, { kind: 'one', task: 'vision' }, 'openai', 'gpt-5.1')).toMatchObject({ ok: true, cleared: {} });
    expect((d.toJS() as Doc).auxiliary?.vision?.api_key).toBe('sk-proj-x');
  });

  it('reports an auto slot with its own model as stale after a main switch', () => {
    const d = doc('model: { provider: anthropic, default: claude-sonnet-4-5 }\nauxiliary:\n  vision: { provider: auto, model: claude-haiku-4-5 }\n');
    expect(setMainModel(d, 'openai', 'gpt-5.1')).toMatchObject({ ok: true, staleAux: [{ task: 'vision', provider: 'auto', model: 'claude-haiku-4-5' }] });
  });
});
