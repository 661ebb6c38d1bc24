import { describe, expect, it } from 'vitest';
import { findPostedKey, lookupCall, outboxMetadata } from './outbox-metadata.js';

describe('Slack outbox metadata', () => {
  it('carries the row key under event_type iris_outbox', () => {
    expect(outboxMetadata('iris-7')).toEqual({ event_type: 'iris_outbox', event_payload: { key: 'iris-7' } });
  });

  it('looks in the channel, or in the thread the message belongs to, with metadata', () => {
    expect(lookupCall('C1', null)).toEqual({ method: 'conversations.history', params: { channel: 'C1', limit: 200, include_all_metadata: true } });
    expect(lookupCall('C1', '1.5')).toEqual({ method: 'conversations.replies', params: { channel: 'C1', ts: '1.5', limit: 200, include_all_metadata: true } });
  });

  it.each([
    { name: 'found', body: { messages: [{ ts: '2.0', metadata: outboxMetadata('iris-1') }, { ts: '1.0', metadata: outboxMetadata('iris-7') }] }, found: '1.0' },
    { name: 'another row only', body: { messages: [{ ts: '2.0', metadata: outboxMetadata('iris-1') }] }, found: undefined },
    { name: 'same key, another app\'s event type', body: { messages: [{ ts: '2.0', metadata: { event_type: 'other', event_payload: { key: 'iris-7' } } }] }, found: undefined },
    { name: 'no metadata (the listing was asked without it)', body: { messages: [{ ts: '2.0', text: 'x' }] }, found: undefined },
    { name: 'not a listing', body: { ok: true }, found: undefined },
    { name: 'null', body: null, found: undefined },
  ])('$name', ({ body, found }) => {
    expect(findPostedKey(body, 'iris-7')).toBe(found);
  });
});
