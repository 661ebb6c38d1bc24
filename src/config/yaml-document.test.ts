import { describe, expect, it } from 'vitest';
import { parseConfigText, serializeDocument, setScalarIn } from './yaml-document.js';
import type { Doc } from '../../test/helpers/documents.js';

function parse(text: string) {
  const parsed = parseConfigText(text, 'config.yaml');
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.doc;
}

describe('parseConfigText', () => {
  it('names the line and column of a syntax error', () => {
    const parsed = parseConfigText('model:\n  provider: openai\n  default: [unclosed\nother: 1\n', 'c.yaml');
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.error.code).toBe('parse_error');
    expect(parsed.ok ? '' : parsed.error.message).toMatch(/^c\.yaml: invalid YAML at line \d+, column \d+: /);
  });

  it('reports a duplicate key on its line', () => {
    const parsed = parseConfigText('a: 1\nb: 2\na: 3\n', 'c.yaml');
    expect(parsed.ok ? '' : parsed.error.message).toBe(
      'c.yaml: invalid YAML at line 3, column 1: Map keys must be unique',
    );
  });

  it('reports a tab indentation error with its line', () => {
    const parsed = parseConfigText('model:\n\tprovider: x\n', 'c.yaml');
    expect(parsed.ok ? '' : parsed.error.message).toMatch(/^c\.yaml: invalid YAML at line 2, column \d+: /);
  });
});

describe('setScalarIn', () => {
  const original = [
    '# top comment',
    "model: '' # not configured yet",
    '',
    '# routes live here',
    'platforms:',
    '  webhook:',
    '    enabled: false # flip me',
    '    extra:',
    '      port: 8644',
    'my_future_key: keep me',
    '',
  ].join('\n');

  it('keeps comments, blank lines, key order and unknown keys', () => {
    const doc = parse(original);
    const result = setScalarIn(doc, ['platforms', 'webhook', 'enabled'], true);
    expect(result).toEqual({ ok: true, previous: false });
    expect(serializeDocument(doc)).toBe(original.replace('enabled: false', 'enabled: true'));
  });

  it('turns a scalar parent into a mapping (model: "" → model.provider)', () => {
    const doc = parse(original);
    expect(setScalarIn(doc, ['model', 'provider'], 'openrouter').ok).toBe(true);
    const text = serializeDocument(doc);
    expect(text).toContain('model:\n  provider: openrouter\n');
    expect(text).toContain('# top comment');
    expect(text).toContain('my_future_key: keep me');
    expect((doc.toJS() as Doc).model).toEqual({ provider: 'openrouter' });
  });

  it('creates missing nested maps', () => {
    const doc = parse('a: 1\n');
    setScalarIn(doc, ['auxiliary', 'vision', 'timeout'], 90);
    expect(serializeDocument(doc)).toBe('a: 1\nauxiliary:\n  vision:\n    timeout: 90\n');
  });

  it('refuses to replace a mapping or a list with a scalar', () => {
    const doc = parse('model:\n  provider: x\nfallback_providers:\n  - provider: a\n    model: b\n');
    const onMap = setScalarIn(doc, ['model'], 'y');
    const onList = setScalarIn(doc, ['fallback_providers'], 'y');
    expect(onMap.ok ? '' : onMap.error.code).toBe('not_scalar');
    expect(onList.ok ? '' : onList.error.code).toBe('not_scalar');
    expect(doc.toJS()).toEqual({ model: { provider: 'x' }, fallback_providers: [{ provider: 'a', model: 'b' }] });
  });

  it('sets a field of an existing list item by index and refuses a missing index', () => {
    const doc = parse('fallback_providers:\n  - provider: a\n    model: b\n');
    expect(setScalarIn(doc, ['fallback_providers', '0', 'model'], 'c').ok).toBe(true);
    expect((doc.toJS() as Doc).fallback_providers).toEqual([{ provider: 'a', model: 'c' }]);
    const missing = setScalarIn(doc, ['fallback_providers', '3', 'model'], 'c');
    expect(missing.ok ? '' : missing.error.message).toBe(
      'fallback_providers.3: no list item 3 (the list has 1)',
    );
  });

  it('works on an empty document', () => {
    const doc = parse('');
    setScalarIn(doc, ['approval_mode'], 'smart');
    expect(serializeDocument(doc)).toBe('approval_mode: smart\n');
  });

  it('refuses a document whose top level is a list', () => {
    const doc = parse('- a\n- b\n');
    const result = setScalarIn(doc, ['x'], 1);
    expect(result.ok ? '' : result.error.code).toBe('not_a_mapping');
  });

  it('does not fold long strings', () => {
    const long = 'word '.repeat(40).trim();
    const doc = parse('a: 1\n');
    setScalarIn(doc, ['prompt'], long);
    expect(serializeDocument(doc)).toBe(`a: 1\nprompt: ${long}\n`);
  });
});

describe('anchors, aliases and merge keys', () => {
  it('edits a copy of an aliased mapping and leaves the anchor alone', () => {
    const doc = parse('base: &b {provider: openai, model: gpt-4.1}\nauxiliary:\n  vision: *b\n');
    expect(setScalarIn(doc, ['auxiliary', 'vision', 'model'], 'gpt-5').ok).toBe(true);
    expect(doc.toJS()).toEqual({
      base: { provider: 'openai', model: 'gpt-4.1' },
      auxiliary: { vision: { provider: 'openai', model: 'gpt-5' } },
    });
  });

  it('reads merge keys', () => {
    const doc = parse('base: &b {provider: openai, model: gpt-4.1}\nvision:\n  <<: *b\n  timeout: 5\n');
    expect((doc.toJS() as Doc).vision).toEqual({ provider: 'openai', model: 'gpt-4.1', timeout: 5 });
  });
});
