import { describe, expect, it } from 'vitest';
import { lookupPath } from './payload-path.js';

const payload = {
  action: 'opened',
  number: 7,
  draft: false,
  merged_at: null,
  pull_request: { title: 'Fix it', user: { login: 'octo' }, labels: [{ name: 'bug' }, { name: 'ui' }] },
  commits: ['a1', 'b2'],
  matrix: [[1, 2], [3]],
  by_index: { '0': 'zero', '10': 'ten' },
  empty: '',
};

describe('lookupPath', () => {
  it.each([
    ['action', 'opened'],
    ['number', 7],
    ['draft', false],
    ['merged_at', null],
    ['empty', ''],
    ['pull_request.title', 'Fix it'],
    ['pull_request.user.login', 'octo'],
    ['pull_request.labels.1.name', 'ui'],
    ['commits.0', 'a1'],
    ['matrix.0.1', 2],
    ['by_index.0', 'zero'],
    ['by_index.10', 'ten'],
  ])('finds %s', (path, value) => {
    expect(lookupPath(payload, path)).toEqual({ found: true, value });
  });

  it('returns objects and arrays themselves', () => {
    expect(lookupPath(payload, 'pull_request.user')).toEqual({ found: true, value: { login: 'octo' } });
    expect(lookupPath(payload, 'commits')).toEqual({ found: true, value: ['a1', 'b2'] });
  });

  it.each([
    ['a missing key', 'nope'],
    ['a missing nested key', 'pull_request.body'],
    ['an index past the end', 'commits.2'],
    ['a non-canonical index', 'commits.01'],
    ['a name on an array', 'commits.length'],
    ['a step into a string', 'action.length'],
    ['a step into a number', 'number.0'],
    ['a step into null', 'merged_at.x'],
    ['a step into a boolean', 'draft.x'],
    ['an inherited property', 'constructor'],
    ['an inherited property deeper', 'pull_request.toString'],
    ['__proto__', '__proto__'],
  ])('finds nothing for %s (%s)', (_name, path) => {
    expect(lookupPath(payload, path)).toEqual({ found: false });
  });

  it.each(['', '.', 'a.', '.a', 'a..b', 'a b', 'a-b', 'a[0]', 'é', 'action '])('rejects the malformed path %j', (path) => {
    expect(lookupPath({ '': 1, a: { '': 1, b: 1 }, 'a b': 1, 'a-b': 1, é: 1, 'action ': 1 }, path)).toEqual({ found: false });
  });

  it('finds a __proto__ key that is the payload’s own data', () => {
    expect(lookupPath(JSON.parse('{"__proto__":{"x":1}}'), '__proto__.x')).toEqual({ found: true, value: 1 });
  });

  it('finds nothing in a payload that is not an object', () => {
    expect(lookupPath(null, 'a')).toEqual({ found: false });
    expect(lookupPath('text', 'length')).toEqual({ found: false });
  });
});
