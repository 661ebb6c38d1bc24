import { describe, expect, it } from 'vitest';
import type { DeliveryDetail, DeliveryRow } from '../webhook/delivery-view.js';
import { deliveryDetailText, deliveryRowText } from './deliveries-text.js';

// The fields a list row and a detail share.
const EVENT = {
  id: 3,
  received_at: '2026-11-24T03:00:00.000Z',
  route: 'ci',
  event: 'push',
  delivery_id: 'd-3',
  state: 'delivered',
  session: 's-9',
  run_attempts: 1,
  delivery_attempts: 1,
  reason: null,
} as const;
const ROW: DeliveryRow = { ...EVENT, answer_first_line: 'Build is green.' };

describe('deliveryRowText', () => {
  it('two lines: the event, then its session and first answer line', () => {
    expect(deliveryRowText(ROW)).toBe('#3 2026-11-24T03:00:00.000Z ci push d-3 delivered\n    session s-9 · Build is green.');
  });

  it('one line before there is a session or an answer; a blank answer says so', () => {
    expect(deliveryRowText({ ...ROW, state: 'accepted', session: null, answer_first_line: null })).toBe('#3 2026-11-24T03:00:00.000Z ci push d-3 accepted');
    expect(deliveryRowText({ ...ROW, answer_first_line: '' })).toBe('#3 2026-11-24T03:00:00.000Z ci push d-3 delivered\n    session s-9 · (empty answer)');
    expect(deliveryRowText({ ...ROW, state: 'failed', reason: 'boom', answer_first_line: null })).toBe('#3 2026-11-24T03:00:00.000Z ci push d-3 failed (boom)\n    session s-9');
  });
});

describe('deliveryDetailText', () => {
  const DETAIL: DeliveryDetail = {
    ...EVENT,
    updated_at: '2026-11-24T03:00:05.000Z', deliver: 'log', outcome: 'delivered: written to gateway.log', answer: 'Build is green.\nAll 12 jobs passed.' };

  it('the fields, then the whole answer', () => {
    expect(deliveryDetailText(DETAIL)).toBe(
      [
        '#3 ci · push · delivery d-3',
        'received  2026-11-24T03:00:00.000Z',
        'updated   2026-11-24T03:00:05.000Z',
        'state     delivered',
        'outcome   delivered: written to gateway.log',
        'attempts  1 run, 1 delivery',
        'deliver   log',
        'session   s-9 (iris sessions show s-9)',
        '',
        'Build is green.',
        'All 12 jobs passed.',
      ].join('\n'),
    );
  });

  it('before an answer', () => {
    expect(deliveryDetailText({ ...DETAIL, session: null, answer: null }).split('\n').slice(-3)).toEqual(['session   none yet', '', '(no answer yet)']);
  });
});
