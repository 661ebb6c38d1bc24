// The rounds of a batch's dedup upserts (the accept path itself runs in the inbox tests).
import { describe, expect, it } from 'vitest';
import type { NewWebhookEvent } from '../webhook-types.js';
import { dedupRounds } from './pg-webhook-accept.js';

const event = (route: string, deliveryId: string, deduplicate = true): NewWebhookEvent => ({
  route,
  deliveryId,
  deduplicate,
  event: 'push',
  payload: '{}',
  routeSnapshot: '{}',
  receivedAt: 1,
});

describe('dedupRounds', () => {
  it('puts the k-th occurrence of each delivery in round k, leaving out timestamp ids', () => {
    expect(
      dedupRounds([event('r', 'a'), event('r', 'b'), event('r', 'a'), event('s', 'a'), event('r', 'a'), event('r', 't', false), event('r', 'b')]),
    ).toEqual([[0, 1, 3], [2, 6], [4]]);
  });

  it('keeps apart keys that only a careless join would confuse', () => {
    expect(dedupRounds([event('a:b', 'c'), event('a', 'b:c')])).toEqual([[0, 1]]);
  });

  it('has no rounds for a batch without deduplicated events', () => {
    expect(dedupRounds([event('r', '1', false)])).toEqual([]);
  });
});
