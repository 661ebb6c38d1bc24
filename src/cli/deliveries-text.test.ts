import { describe, expect, it } from 'vitest';
import type { DeliveryDetail, DeliveryRow } from '../webhook/delivery-view.js';
import { deliveryDetailText, deliveryRowText, reviewText } from './deliveries-text.js';

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

describe('reviewText', () => {
  const review = {
    inline: [{ path: 'src/a.ts', line: 2, severity: 'major', title: 'Unchecked input' }],
    in_summary: [{ path: 'src/a.ts', line: 40, severity: 'nit', title: 'Docs' }],
    repeats: [{ path: 'src/b.ts', line: 9, severity: 'minor', title: 'Magic number', state: 'dismissed' }],
    outdated: [{ path: 'src/c.ts', line: 1, severity: 'minor', title: 'Old' }],
    unreadable: false,
  };

  it('once delivered: what was posted and marked', () => {
    expect(reviewText(review, 'delivered')).toEqual([
      'findings posted on their lines:',
      '  src/a.ts:2 major Unchecked input',
      'findings in the summary (not on a changed line):',
      '  src/a.ts:40 nit Docs',
      'findings skipped as repeats:',
      '  src/b.ts:9 minor Magic number (dismissed)',
      'findings marked outdated:',
      '  src/c.ts:1 minor Old',
    ]);
  });

  it('an outdated finding a person had resolved first says so', () => {
    const withNote = { ...review, outdated: [{ path: 'src/c.ts', line: 1, severity: 'minor', title: 'Old', note: 'a person resolved its thread first: no reply' }] };
    expect(reviewText(withNote, 'delivered').slice(-2)).toEqual(['findings marked outdated:', '  src/c.ts:1 minor Old (a person resolved its thread first: no reply)']);
  });

  it('before (or without) a delivery: what is to be posted and marked says it has not been', () => {
    const lines = reviewText(review, 'failed');
    expect(lines[0]).toBe('findings to post on their lines (not yet: the event is failed):');
    expect(lines[6]).toBe('findings to mark outdated (not yet: the event is failed):');
    expect(reviewText({ ...review, unreadable: true }, 'failed')).toEqual(['findings: none (the answer could not be read as findings)']);
    expect(reviewText({ ...review, inline: [], in_summary: [], repeats: [], outdated: [] }, 'done')).toEqual(['findings: none']);
  });
});
