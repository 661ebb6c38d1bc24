// Delivering a PR route's answer through a fake code host with comments in memory: the living
// summary comment (posted, edited, found by its marker, posted anew when deleted), replies with the
// delivery marker, the reviewed head, crash recovery and retries.
import { describe, expect, it } from 'vitest';
import { fakeForgeClient, failure, memoryPrThreads } from '../../test/helpers/pr-fakes.js';
import { deliveryMarker } from '../delivery/forge-comment.js';
import type { WebhookEventRecord } from '../store/webhook-types.js';
import { summaryMarker } from '../webhook/pr-event.js';
import { deliverPrComment, type PrCommentTarget } from './deliver-pr-comment.js';

const SHA = 'fedcba9876543210fedcba9876543210fedcba98';
const KEY = 'github:octo/widgets#12';
const PR = { repo: 'octo/widgets', number: 12 };
const MARKER = summaryMarker('reviews', PR);

const record = (overrides: Partial<WebhookEventRecord> = {}): WebhookEventRecord => ({
  id: 7,
  route: 'reviews',
  deliveryId: 'd-7',
  event: 'pull_request',
  payload: '{}',
  routeSnapshot: '{}',
  state: 'done',
  runAttempts: 1,
  deliveryAttempts: 0,
  sessionId: 'sess-1',
  deliveryPid: null,
  output: 'LGTM',
  error: null,
  receivedAt: 0,
  updatedAt: 0,
  lane: `reviews|${KEY}`,
  runAfter: null,
  skipReason: null,
  deliverAs: 'summary',
  ...overrides,
});

const UPDATE: PrCommentTarget = { forge: 'github', pr: PR, update: true, headSha: SHA };
const NEW_MODE: PrCommentTarget = { forge: 'github', pr: PR, update: false, headSha: SHA };

function setup() {
  const forge = fakeForgeClient();
  const threads = memoryPrThreads();
  const events: string[] = [];
  const sleeps: number[] = [];
  const deliver = (rec: WebhookEventRecord, target: PrCommentTarget) =>
    deliverPrComment(
      { client: forge.client, threads, retry: { attempts: 3, backoffMs: [10, 20], sleep: async (ms) => void sleeps.push(ms) } },
      rec,
      target,
      async () => void events.push(`delivering after ${forge.methods().join(',') || 'nothing'}`),
      new AbortController().signal,
    );
  return { forge, threads, events, sleeps, deliver };
}

describe('deliverPrComment: the living summary', () => {
  it('the first delivery looks for the marker, posts with it and stores the id and the reviewed head', async () => {
    const { forge, threads, events, deliver } = setup();
    expect(await deliver(record(), UPDATE)).toEqual({ ok: true, comment: { id: '100', url: 'https://example.test/c/100' }, attempts: 2, edited: false, foundPosted: false });
    expect(forge.comments).toEqual([{ id: '100', body: `LGTM\n\n${MARKER}` }]);
    expect(forge.methods()).toEqual(['findComment', 'postComment']);
    expect(events).toEqual(['delivering after findComment']);
    expect(await threads.get('reviews', KEY)).toMatchObject({ summaryCommentId: '100', reviewedSha: SHA });
  });

  it('the second delivery edits the same comment', async () => {
    const { forge, threads, events, deliver } = setup();
    await deliver(record(), UPDATE);
    expect(await deliver(record({ id: 8, output: 'Still fine' }), { ...UPDATE, headSha: 'abc' })).toEqual({
      ok: true,
      comment: { id: '100', url: 'https://example.test/c/100' },
      attempts: 1,
      edited: true,
      foundPosted: false,
    });
    expect(forge.comments).toEqual([{ id: '100', body: `Still fine\n\n${MARKER}` }]);
    expect(forge.methods()).toEqual(['findComment', 'postComment', 'updateComment']);
    expect(events).toEqual(['delivering after findComment', 'delivering after findComment,postComment']);
    expect(await threads.get('reviews', KEY)).toMatchObject({ summaryCommentId: '100', reviewedSha: 'abc' });
  });

  it('a deleted summary is posted anew and the new id stored', async () => {
    const { forge, threads, deliver } = setup();
    await deliver(record(), UPDATE);
    forge.comments.splice(0);
    expect(await deliver(record({ id: 8, output: 'Again' }), UPDATE)).toMatchObject({ ok: true, comment: { id: '101' }, attempts: 2, edited: false });
    expect(forge.comments).toEqual([{ id: '101', body: `Again\n\n${MARKER}` }]);
    expect(forge.methods().slice(2)).toEqual(['updateComment', 'postComment']);
    expect((await threads.get('reviews', KEY))?.summaryCommentId).toBe('101');
  });

  it('without a stored id, a comment carrying the marker is edited (a post whose id was lost)', async () => {
    const { forge, threads, deliver } = setup();
    forge.add('human comment');
    const id = forge.add(`old summary\n\n${MARKER}`);
    expect(await deliver(record(), UPDATE)).toMatchObject({ ok: true, comment: { id }, edited: true });
    expect(forge.comments.map((c) => c.body)).toEqual(['human comment', `LGTM\n\n${MARKER}`]);
    expect(forge.methods()).toEqual(['findComment', 'updateComment']);
    expect((await threads.get('reviews', KEY))?.summaryCommentId).toBe(id);
  });

  it('a delivery in state delivering edits the summary, never posts a second one', async () => {
    const { forge, deliver } = setup();
    await deliver(record(), UPDATE);
    expect(await deliver(record({ state: 'delivering' }), UPDATE)).toMatchObject({ ok: true, edited: true });
    expect(forge.comments).toHaveLength(1);
  });

  it('a reply on an update route is a new comment with the delivery marker, and the summary id is untouched', async () => {
    const { forge, threads, deliver } = setup();
    await deliver(record(), UPDATE);
    expect(await deliver(record({ id: 9, output: 'An answer', deliverAs: 'reply' }), { ...UPDATE, headSha: 'other' })).toEqual({
      ok: true,
      comment: { id: '101', url: 'https://example.test/c/101' },
      attempts: 1,
      edited: false,
      foundPosted: false,
    });
    expect(forge.comments.map((c) => c.body)).toEqual([`LGTM\n\n${MARKER}`, `An answer\n\n${deliveryMarker(9)}`]);
    // A reply never records a reviewed head.
    expect(await threads.get('reviews', KEY)).toMatchObject({ summaryCommentId: '100', reviewedSha: SHA });
  });

  it('a summary without a head stores the id only', async () => {
    const { threads, deliver } = setup();
    await deliver(record(), { forge: 'github', pr: PR, update: true });
    expect(await threads.get('reviews', KEY)).toMatchObject({ summaryCommentId: '100', reviewedSha: null });
  });

  it('an empty answer gets the placeholder body', async () => {
    const { forge, deliver } = setup();
    await deliver(record({ output: null }), UPDATE);
    expect(forge.comments[0]?.body).toBe(`_(The agent produced no output.)_\n\n${MARKER}`);
  });

  it('a post that timed out but landed is found by its marker on the next try, never posted twice', async () => {
    const { forge, threads, deliver } = setup();
    const post = forge.client.postComment.bind(forge.client);
    let first = true;
    forge.client.postComment = async (pr, body, options) => {
      const result = await post(pr, body, options);
      if (!first) return result;
      first = false;
      return failure('timeout', true, 'timed out after 30s');
    };
    expect(await deliver(record(), UPDATE)).toEqual({ ok: true, comment: { id: '100', url: 'https://example.test/c/100' }, attempts: 3, edited: false, foundPosted: false });
    expect(forge.comments).toEqual([{ id: '100', body: `LGTM\n\n${MARKER}` }]);
    expect(forge.methods()).toEqual(['findComment', 'postComment', 'findComment']);
    expect((await threads.get('reviews', KEY))?.summaryCommentId).toBe('100');
  });

  it('a failed lookup fails before onDelivering', async () => {
    const { forge, events, deliver } = setup();
    forge.failNext('findComment', failure('unauthenticated', false, 'no token'));
    expect(await deliver(record(), UPDATE)).toEqual({ ok: false, code: 'unauthenticated', retryable: false, message: 'no token', attempts: 1 });
    expect(events).toEqual([]);
    expect(forge.comments).toEqual([]);
  });

  it('an edit failing otherwise than not_found is a failure, not a second post', async () => {
    const { forge, deliver } = setup();
    await deliver(record(), UPDATE);
    forge.failNext('updateComment', failure('failed', false, 'HTTP 422'));
    expect(await deliver(record({ id: 8 }), UPDATE)).toEqual({ ok: false, code: 'failed', retryable: false, message: 'HTTP 422', attempts: 1 });
    expect(forge.comments).toHaveLength(1);
  });
});

describe('deliverPrComment: new comments', () => {
  it('posts with the delivery marker and stores the reviewed head of a summary', async () => {
    const { forge, threads, events, deliver } = setup();
    expect(await deliver(record(), NEW_MODE)).toEqual({ ok: true, comment: { id: '100', url: 'https://example.test/c/100' }, attempts: 1, edited: false, foundPosted: false });
    expect(forge.comments).toEqual([{ id: '100', body: `LGTM\n\n${deliveryMarker(7)}` }]);
    expect(forge.methods()).toEqual(['postComment']);
    expect(events).toEqual(['delivering after nothing']);
    expect(await threads.get('reviews', KEY)).toMatchObject({ reviewedSha: SHA, summaryCommentId: null });
  });

  it('a reply stores nothing in the thread', async () => {
    const { threads, deliver } = setup();
    await deliver(record({ deliverAs: 'reply' }), NEW_MODE);
    expect(await threads.get('reviews', KEY)).toBeUndefined();
  });

  it('a plain event (deliverAs null) stores no reviewed head', async () => {
    const { threads, deliver } = setup();
    await deliver(record({ deliverAs: null }), NEW_MODE);
    expect(await threads.get('reviews', KEY)).toBeUndefined();
  });

  it('in state delivering, a comment already carrying the marker is not posted again', async () => {
    const { forge, events, threads, deliver } = setup();
    const id = forge.add(`LGTM\n\n${deliveryMarker(7)}`);
    expect(await deliver(record({ state: 'delivering' }), NEW_MODE)).toEqual({
      ok: true,
      comment: { id, url: `https://example.test/c/${id}` },
      attempts: 1,
      edited: false,
      foundPosted: true,
    });
    expect(forge.methods()).toEqual(['findComment']);
    expect(forge.comments).toHaveLength(1);
    expect(events).toEqual([]);
    expect((await threads.get('reviews', KEY))?.reviewedSha).toBe(SHA);
  });

  it('in state delivering without the marker on the PR, it posts', async () => {
    const { forge, deliver } = setup();
    expect(await deliver(record({ state: 'delivering' }), NEW_MODE)).toMatchObject({ ok: true, attempts: 2, foundPosted: false });
    expect(forge.methods()).toEqual(['findComment', 'postComment']);
  });

  it('a retryable failure then a success counts both tries and waits the backoff', async () => {
    const { forge, sleeps, deliver } = setup();
    forge.failNext('postComment', failure('failed', true, 'HTTP 502'));
    expect(await deliver(record(), NEW_MODE)).toMatchObject({ ok: true, attempts: 2, comment: { id: '100' } });
    expect(sleeps).toEqual([10]);
    expect(forge.comments).toHaveLength(1);
  });

  it('after a timeout, the next try looks for the marker before posting', async () => {
    const { forge, deliver } = setup();
    forge.failNext('postComment', failure('timeout', true, 'timed out'));
    expect(await deliver(record(), NEW_MODE)).toMatchObject({ ok: true, attempts: 2, foundPosted: false });
    expect(forge.methods()).toEqual(['postComment', 'findComment', 'postComment']);
    expect(forge.comments).toHaveLength(1);
  });

  it('a non-retryable failure is returned as it is, after one try', async () => {
    const { forge, deliver } = setup();
    forge.failNext('postComment', failure('not_found', false, 'no such PR'));
    expect(await deliver(record(), NEW_MODE)).toEqual({ ok: false, code: 'not_found', retryable: false, message: 'no such PR', attempts: 1 });
  });

  it('retryable failures stop after the attempts allowed', async () => {
    const { forge, sleeps, deliver } = setup();
    forge.failNext('postComment', failure('failed', true, 'a'), failure('failed', true, 'b'), failure('failed', true, 'c'));
    expect(await deliver(record(), NEW_MODE)).toEqual({ ok: false, code: 'failed', retryable: true, message: 'c', attempts: 3 });
    expect(sleeps).toEqual([10, 20]);
    expect(forge.comments).toEqual([]);
  });
});
