import { describe, expect, it } from 'vitest';
import { outboxOrigin } from './deliver-event.js';

describe('outboxOrigin', () => {
  it('is the event id for a first delivery, so a crash-repeated delivery adds nothing', () => {
    expect(outboxOrigin({ id: 12, deliveryAttempts: 0, updatedAt: 5 })).toBe('webhook:12');
  });

  it('is new for each operator redelivery (delivery attempts kept, a new updatedAt), and stable across a crash during one', () => {
    expect(outboxOrigin({ id: 12, deliveryAttempts: 1, updatedAt: 1_700_000_000_000 })).toBe('webhook:12:redelivery:1700000000000');
    expect(outboxOrigin({ id: 12, deliveryAttempts: 1, updatedAt: 1_700_000_050_000 })).toBe('webhook:12:redelivery:1700000050000');
  });
});
