import { describe, expect, it } from 'vitest';
import type { WebhookRoute } from '../config/schema.js';
import { matchesFilters } from './filters.js';

type Filter = WebhookRoute['filters'][number];
const f = (field: string, values: Filter['in']): Filter => ({ field, in: values });

const payload = {
  action: 'opened',
  number: 7,
  ratio: 1.5,
  big: 1e21,
  iid: '42',
  draft: false,
  merged_at: null,
  pull_request: { base: { ref: 'main' }, labels: [{ name: 'bug' }] },
  tags: ['a'],
};

describe('matchesFilters', () => {
  it('matches when there are no filters', () => {
    expect(matchesFilters([], payload)).toBe(true);
    expect(matchesFilters([], {})).toBe(true);
  });

  it('matches a field whose value is listed', () => {
    expect(matchesFilters([f('action', ['opened', 'synchronize'])], payload)).toBe(true);
    expect(matchesFilters([f('action', ['closed'])], payload)).toBe(false);
  });

  it('follows dotted paths and array indexes', () => {
    expect(matchesFilters([f('pull_request.base.ref', ['main'])], payload)).toBe(true);
    expect(matchesFilters([f('pull_request.labels.0.name', ['bug'])], payload)).toBe(true);
    expect(matchesFilters([f('pull_request.labels.1.name', ['bug'])], payload)).toBe(false);
  });

  it('requires every filter to match', () => {
    expect(matchesFilters([f('action', ['opened']), f('pull_request.base.ref', ['main'])], payload)).toBe(true);
    expect(matchesFilters([f('action', ['opened']), f('pull_request.base.ref', ['dev'])], payload)).toBe(false);
    expect(matchesFilters([f('action', ['closed']), f('pull_request.base.ref', ['main'])], payload)).toBe(false);
  });

  it('never matches a missing field, not even with null listed', () => {
    expect(matchesFilters([f('nope', [null, '', 0, false])], payload)).toBe(false);
    expect(matchesFilters([f('pull_request.head.ref', ['main'])], payload)).toBe(false);
  });

  it('matches nothing with an empty in list', () => {
    expect(matchesFilters([f('action', [])], payload)).toBe(false);
  });

  it('compares case-sensitively and strictly', () => {
    expect(matchesFilters([f('action', ['Opened'])], payload)).toBe(false);
    expect(matchesFilters([f('action', ['opened '])], payload)).toBe(false);
    expect(matchesFilters([f('draft', [false])], payload)).toBe(true);
    expect(matchesFilters([f('draft', ['false'])], payload)).toBe(false);
    expect(matchesFilters([f('draft', [0])], payload)).toBe(false);
    expect(matchesFilters([f('draft', [null])], payload)).toBe(false);
  });

  it('matches a present null only by null', () => {
    expect(matchesFilters([f('merged_at', [null])], payload)).toBe(true);
    expect(matchesFilters([f('merged_at', ['null', '', false, 0])], payload)).toBe(false);
  });

  it('lets a number match its decimal string, and a numeric string match its number', () => {
    expect(matchesFilters([f('number', [7])], payload)).toBe(true);
    expect(matchesFilters([f('number', ['7'])], payload)).toBe(true);
    expect(matchesFilters([f('ratio', ['1.5'])], payload)).toBe(true);
    expect(matchesFilters([f('iid', [42])], payload)).toBe(true);
    expect(matchesFilters([f('iid', ['42'])], payload)).toBe(true);
  });

  it('uses the canonical decimal spelling only', () => {
    expect(matchesFilters([f('number', ['07', '7.0', ' 7', '+7', '0x7'])], payload)).toBe(false);
    expect(matchesFilters([f('ratio', ['1.50'])], payload)).toBe(false);
    expect(matchesFilters([f('big', ['1e+21'])], payload)).toBe(true);
    expect(matchesFilters([f('big', ['1000000000000000000000'])], payload)).toBe(false);
    expect(matchesFilters([f('iid', [42.5, 4])], payload)).toBe(false);
  });

  it('never matches an object or array', () => {
    expect(matchesFilters([f('pull_request', ['[object Object]', null])], payload)).toBe(false);
    expect(matchesFilters([f('tags', ['a'])], payload)).toBe(false);
  });

  it('ignores inherited properties', () => {
    expect(matchesFilters([f('constructor', ['function Object() { [native code] }'])], payload)).toBe(false);
  });
});
