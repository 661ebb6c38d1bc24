import { describe, expect, it } from 'vitest';
import type { WebhookEventRecord } from '../store/webhook-types.js';
import { deliveryDetail, deliveryRow, FIRST_LINE_CHARS, firstLine, RESOLVED_FIRST_NOTE, reviewView } from './delivery-view.js';

const FORGE = JSON.stringify({ name: 'github-pr', source: 'config', skills: [], deliver: 'forge_comment', deliver_extra: { repo: '{repository.full_name}', pr_number: '{number}' } });
const LOG = JSON.stringify({ name: 'ci', source: 'subscription', skills: [], deliver: 'log', deliver_extra: {} });

const record = (over: Partial<WebhookEventRecord> = {}): WebhookEventRecord => ({
  id: 7,
  route: 'github-pr',
  deliveryId: 'd-7',
  event: 'pull_request',
  payload: JSON.stringify({ number: 42, repository: { full_name: 'octo/hello' } }),
  routeSnapshot: FORGE,
  state: 'delivered',
  runAttempts: 1,
  deliveryAttempts: 2,
  sessionId: 's-1',
  deliveryPid: null,
  output: '\n  Looks good.  \nTwo nits below.',
  error: null,
  receivedAt: Date.UTC(2026, 10, 24, 3, 0, 0),
  lane: null,
  runAfter: null,
  skipReason: null,
  deliverAs: null,
  updatedAt: Date.UTC(2026, 10, 24, 3, 0, 9),
  ...over,
});

describe('firstLine', () => {
  it('is the first non-blank line, trimmed', () => {
    expect(firstLine('\n\n  LGTM \nmore')).toBe('LGTM');
    expect(firstLine('one\r\ntwo')).toBe('one');
    expect(firstLine('')).toBe('');
    expect(firstLine('  \n ')).toBe('');
  });

  it(`is cut at ${FIRST_LINE_CHARS} characters with …`, () => {
    const cut = firstLine('x'.repeat(500));
    expect(cut).toHaveLength(FIRST_LINE_CHARS);
    expect(cut).toBe(`${'x'.repeat(FIRST_LINE_CHARS - 1)}…`);
    expect(firstLine('y'.repeat(FIRST_LINE_CHARS))).toBe('y'.repeat(FIRST_LINE_CHARS));
  });
});

describe('deliveryRow', () => {
  it('has the session and the first answer line; null before an answer', () => {
    expect(deliveryRow(record())).toEqual({
      id: 7,
      received_at: '2026-11-24T03:00:00.000Z',
      route: 'github-pr',
      event: 'pull_request',
      delivery_id: 'd-7',
      state: 'delivered',
      session: 's-1',
      run_attempts: 1,
      delivery_attempts: 2,
      reason: null,
      answer_first_line: 'Looks good.',
    });
    expect(deliveryRow(record({ state: 'accepted', output: null, sessionId: null })).answer_first_line).toBeNull();
  });
});

describe('deliveryDetail outcome', () => {
  it.each<[string, Partial<WebhookEventRecord>, string]>([
    ['a PR comment, with its target', {}, 'delivered: posted as a PR comment on octo/hello#42 (2 attempts)'],
    ['a log line', { routeSnapshot: LOG }, 'delivered: written to gateway.log'],
    ['a PR comment whose payload no longer names a target', { payload: '{}', deliveryAttempts: 1 }, 'delivered: posted as a PR comment (1 attempt)'],
    ['waiting', { state: 'accepted', runAttempts: 0, output: null }, 'waiting for a worker'],
    ['waiting after a cut-off run', { state: 'accepted', runAttempts: 2, output: null }, 'waiting to run again (2 attempts so far)'],
    ['running', { state: 'running', runAttempts: 1, output: null }, 'the agent is running (attempt 1)'],
    ['answered, not delivered yet', { state: 'done' }, 'answered; delivery pending'],
    ['answered, a delivery problem', { state: 'done', error: 'gh timed out' }, 'answered; delivery pending after a problem: gh timed out'],
    ['run failed', { state: 'failed', output: null, error: 'no usable model' }, 'failed before an answer: no usable model'],
    ['delivery failed', { state: 'failed', error: 'gh is not signed in' }, 'answered, but the delivery failed: gh is not signed in'],
  ])('%s', (_name, over, outcome) => {
    expect(deliveryDetail(record(over)).outcome).toBe(outcome);
  });

  it('carries the whole answer, the target and both times', () => {
    expect(deliveryDetail(record())).toMatchObject({
      answer: '\n  Looks good.  \nTwo nits below.',
      deliver: 'forge_comment',
      received_at: '2026-11-24T03:00:00.000Z',
      updated_at: '2026-11-24T03:00:09.000Z',
    });
    expect(deliveryDetail(record())).not.toHaveProperty('answer_first_line');
    expect(deliveryDetail(record({ routeSnapshot: 'nope' })).deliver).toBeNull();
  });
});

describe('reviewView: an outdated finding resolved by a person first', () => {
  const plan = {
    shas: { base: 'b', head: 'h', start: 's' },
    summary: 'S',
    inline: [],
    notPlaced: [],
    repeats: [],
    outdated: [
      { fingerprint: 'f1', path: 'a.ts', line: 3, severity: 'minor', title: 'One', threadId: 'T1', commentId: '1' },
      { fingerprint: 'f2', path: 'a.ts', line: 9, severity: 'nit', title: 'Two', threadId: 'T2', commentId: '2' },
    ],
  };

  it("carries the note on the finding the delivery recorded in the plan, and on no other", () => {
    expect(reviewView({ ...plan, resolvedFirst: ['f2'] }).outdated).toEqual([
      { path: 'a.ts', line: 3, severity: 'minor', title: 'One' },
      { path: 'a.ts', line: 9, severity: 'nit', title: 'Two', note: RESOLVED_FIRST_NOTE },
    ]);
    expect(reviewView(plan).outdated.map((f) => 'note' in f)).toEqual([false, false]);
    // Not delivered (yet): the plan's lists are what is to happen; nothing is said of what happened.
    expect(reviewView({ ...plan, resolvedFirst: ['f2'] }, false).outdated.map((f) => 'note' in f)).toEqual([false, false]);
  });
});
