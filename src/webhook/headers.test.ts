import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deliveryIdOf, eventNameOf, headerValue, MAX_DELIVERY_ID_LENGTH } from './headers.js';

describe('headerValue', () => {
  it('reads a header by any spelling of its name', () => {
    expect(headerValue({ 'x-github-event': 'push' }, 'X-GitHub-Event')).toBe('push');
    expect(headerValue({ 'X-GitHub-Event': 'push' }, 'x-github-event')).toBe('push');
  });

  it('trims, and takes the first of repeated values', () => {
    expect(headerValue({ 'x-a': '  v  ' }, 'x-a')).toBe('v');
    expect(headerValue({ 'x-a': [' one ', 'two'] }, 'x-a')).toBe('one');
  });

  it('treats absent, empty and blank values as absent', () => {
    expect(headerValue({}, 'x-a')).toBeUndefined();
    expect(headerValue({ 'x-a': undefined }, 'x-a')).toBeUndefined();
    expect(headerValue({ 'x-a': '' }, 'x-a')).toBeUndefined();
    expect(headerValue({ 'x-a': '   ' }, 'x-a')).toBeUndefined();
    expect(headerValue({ 'x-a': [] }, 'x-a')).toBeUndefined();
    expect(headerValue({ 'x-a': [''] }, 'x-a')).toBeUndefined();
  });
});

describe('eventNameOf', () => {
  // One row per source, each beating every source after it.
  const all = {
    'x-forge-event': 'forge',
    'x-github-event': 'github',
    'x-alt-forge-event': 'alt',
    'x-gitlab-event': 'gitlab',
    'x-gitea-event': 'gitea',
    'x-forgejo-event': 'forgejo',
  };
  const order = Object.keys(all);

  it.each(order.map((name, i) => [name, i] as const))('%s beats every later header', (name, i) => {
    const headers = Object.fromEntries(order.slice(i).map((h) => [h, all[h as keyof typeof all]]));
    expect(eventNameOf(headers, { event_type: 'payload', object_kind: 'kind' })).toBe(all[name as keyof typeof all]);
  });

  it('falls back to payload event_type, then object_kind, then unknown', () => {
    expect(eventNameOf({}, { event_type: 'build', object_kind: 'merge_request' })).toBe('build');
    expect(eventNameOf({}, { object_kind: 'merge_request' })).toBe('merge_request');
    expect(eventNameOf({}, {})).toBe('unknown');
  });

  it('skips empty headers and payload values that are not non-empty strings', () => {
    expect(eventNameOf({ 'x-forge-event': '', 'x-gitlab-event': 'Push Hook' }, {})).toBe('Push Hook');
    expect(eventNameOf({}, { event_type: '', object_kind: 'note' })).toBe('note');
    expect(eventNameOf({}, { event_type: 42, object_kind: '  ' })).toBe('unknown');
    expect(eventNameOf({}, { event_type: null, object_kind: { a: 1 } })).toBe('unknown');
  });

  it('keeps the exact header value, spaces inside included', () => {
    expect(eventNameOf({ 'x-alt-forge-event': ' Merge Request Hook ' }, {})).toBe('Merge Request Hook');
  });

  it('reads only the payload’s own fields', () => {
    const payload = Object.create({ event_type: 'inherited' }) as Record<string, unknown>;
    expect(eventNameOf({}, payload)).toBe('unknown');
  });
});

describe('deliveryIdOf', () => {
  const now = 1_700_000_000_123;

  it.each([
    [{ 'x-forge-delivery': 'f', 'x-github-delivery': 'g', 'x-request-id': 'r', 'idempotency-key': 'i', 'x-gitlab-event-uuid': 'u' }, 'f'],
    [{ 'x-github-delivery': 'g', 'x-request-id': 'r', 'idempotency-key': 'i', 'x-gitlab-event-uuid': 'u' }, 'g'],
    [{ 'x-request-id': 'r', 'idempotency-key': 'i', 'x-gitlab-event-uuid': 'u' }, 'r'],
    [{ 'idempotency-key': 'i', 'x-gitlab-event-uuid': 'u' }, 'i'],
    [{ 'x-gitlab-event-uuid': 'u' }, 'u'],
  ])('takes the first present header: %j → %s', (headers, id) => {
    expect(deliveryIdOf(headers, now)).toEqual({ id, deduplicate: true });
  });

  it('falls back to the timestamp, which is never deduplicated', () => {
    expect(deliveryIdOf({}, now)).toEqual({ id: '1700000000123', deduplicate: false });
    expect(deliveryIdOf({ 'x-forge-delivery': '  ' }, now)).toEqual({ id: '1700000000123', deduplicate: false });
  });

  it('keeps an id of exactly the maximum length', () => {
    const id = 'a'.repeat(MAX_DELIVERY_ID_LENGTH);
    expect(deliveryIdOf({ 'x-request-id': id }, now)).toEqual({ id, deduplicate: true });
  });

  it('hashes a longer id, so distinct long ids stay distinct', () => {
    const a = 'a'.repeat(MAX_DELIVERY_ID_LENGTH) + 'x';
    const b = 'a'.repeat(MAX_DELIVERY_ID_LENGTH) + 'y';
    const expected = `sha256:${createHash('sha256').update(a).digest('hex')}`;
    expect(deliveryIdOf({ 'x-request-id': a }, now)).toEqual({ id: expected, deduplicate: true });
    expect(expected).toHaveLength(71);
    expect(deliveryIdOf({ 'x-request-id': b }, now).id).not.toBe(expected);
  });
});
