// Delivering a PR route's answer through a fake code host with comments in memory: the living
// summary comment (posted, edited, found by its marker on the bot's own comments only, posted anew
// when deleted), replies with the delivery marker, crash recovery and retries that never post twice.
import { describe, expect, it } from 'vitest';
import { fakeForgeClient, failure, memoryPrThreads } from '../../test/helpers/pr-fakes.js';
import { deliveryMarker } from '../delivery/forge-comment.js';
import type { WebhookEventRecord } from '../store/webhook-types.js';
import { summaryMarker } from '../webhook/pr-event.js';
import { deliverPrComment, type PrCommentTarget } from './deliver-pr-comment.js';
import type { CallOptions, FindOptions, PrRef } from '../delivery/pr-forge.js';
import type { PrReviewPoster, ThreadNow } from '../delivery/pr-review-poster.js';
import type { PrFindings } from '../store/pr-finding-types.js';

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

const UPDATE: PrCommentTarget = { forge: 'github', pr: PR, update: true };
const NEW_MODE: PrCommentTarget = { forge: 'github', pr: PR, update: false };
const REPLY_MARKER = deliveryMarker(7);

function setup() {
  const forge = fakeForgeClient();
  const threads = memoryPrThreads();
  const events: string[] = [];
  const sleeps: number[] = [];
  const deliver = (rec: WebhookEventRecord, target: PrCommentTarget) =>
    deliverPrComment(
      { client: forge.client, threads, botLogin: 'iris-bot', retry: { attempts: 3, backoffMs: [10, 20], sleep: async (ms) => void sleeps.push(ms) } },
      rec,
      target,
      async () => void events.push(`delivering after ${forge.methods().join(',') || 'nothing'}`),
      new AbortController().signal,
    );
  return { forge, threads, events, sleeps, deliver };
}

const ok = (id: string, how: { edited?: boolean; foundPosted?: boolean; attempts?: number } = {}) => ({
  ok: true,
  comment: { id, url: `https://example.test/c/${id}` },
  attempts: how.attempts ?? 1,
  edited: how.edited ?? false,
  foundPosted: how.foundPosted ?? false,
});

describe('deliverPrComment: the living summary', () => {
  it('the first delivery looks for the marker on the bot\'s comments, posts with it and stores the id', async () => {
    const { forge, threads, events, deliver } = setup();
    expect(await deliver(record(), UPDATE)).toEqual(ok('100', { attempts: 2 }));
    expect(forge.calls.map((c) => [c.method, ...c.args.slice(1)])).toEqual([
      ['findComment', MARKER, 'iris-bot'],
      ['postComment', `LGTM\n\n${MARKER}`],
    ]);
    expect(events).toEqual(['delivering after nothing']);
    expect(await threads.get('reviews', KEY)).toMatchObject({ summaryCommentId: '100' });
  });

  it('the next delivery edits the stored comment without looking for it', async () => {
    const { forge, threads, deliver } = setup();
    await deliver(record(), UPDATE);
    expect(await deliver(record({ id: 8, output: 'Still fine' }), UPDATE)).toEqual(ok('100', { edited: true }));
    expect(forge.methods()).toEqual(['findComment', 'postComment', 'updateComment']);
    expect(forge.comments).toEqual([{ id: '100', body: `Still fine\n\n${MARKER}`, author: 'iris-bot' }]);
    expect((await threads.get('reviews', KEY))?.summaryCommentId).toBe('100');
  });

  it('a deleted summary (404 on edit) is looked for, then posted anew, and the new id stored', async () => {
    const { forge, threads, deliver } = setup();
    await threads.update('reviews', KEY, { summaryCommentId: '55' });
    expect(await deliver(record(), UPDATE)).toEqual(ok('100', { attempts: 3 }));
    expect(forge.methods()).toEqual(['updateComment', 'findComment', 'postComment']);
    expect((await threads.get('reviews', KEY))?.summaryCommentId).toBe('100');
  });

  it('a repost cut off by a crash before its id was stored is found by its marker and edited: never a second summary', async () => {
    const { forge, threads, deliver } = setup();
    await threads.update('reviews', KEY, { summaryCommentId: '55' });
    const reposted = forge.add(`Old\n\n${MARKER}`);
    expect(await deliver(record(), UPDATE)).toEqual(ok(reposted, { edited: true, attempts: 3 }));
    expect(forge.methods()).toEqual(['updateComment', 'findComment', 'updateComment']);
    expect(forge.comments).toHaveLength(1);
    expect((await threads.get('reviews', KEY))?.summaryCommentId).toBe(reposted);
  });

  it("someone else's comment carrying the marker is never taken for the summary", async () => {
    const { forge, deliver } = setup();
    forge.add(`LGTM, merge it\n\n${MARKER}`, 'mallory');
    expect(await deliver(record(), UPDATE)).toEqual(ok('101', { attempts: 2 }));
    expect(forge.comments.map((c) => [c.author, c.body])).toEqual([
      ['mallory', `LGTM, merge it\n\n${MARKER}`],
      ['iris-bot', `LGTM\n\n${MARKER}`],
    ]);
  });

  it('a post that failed but landed is found by its marker on the retry: posted once', async () => {
    const { forge, sleeps, deliver } = setup();
    // The failed try did reach the host: its comment is there.
    const realPost = forge.client.postComment.bind(forge.client);
    let first = true;
    forge.client.postComment = async (pr, body, options) => {
      if (first) {
        first = false;
        await realPost(pr, body, options);
        return failure('failed', true, 'HTTP 502');
      }
      return realPost(pr, body, options);
    };
    expect(await deliver(record(), UPDATE)).toEqual(ok('100', { attempts: 3 }));
    expect(forge.methods()).toEqual(['findComment', 'postComment', 'findComment']);
    expect(forge.comments).toHaveLength(1);
    expect(sleeps).toEqual([10]);
  });

  it('when the look before a retry fails, nothing is posted blind', async () => {
    const { forge, deliver } = setup();
    forge.failNext('postComment', failure('timeout', true));
    forge.failNext('findComment', failure('failed', false, 'HTTP 403'));
    expect(await deliver(record(), NEW_MODE)).toEqual({ ...failure('failed', false, 'HTTP 403'), attempts: 2 });
    expect(forge.methods()).toEqual(['postComment', 'findComment']);
    expect(forge.comments).toEqual([]);
  });

  it('an edit failing otherwise than not_found is a failure, not a second post', async () => {
    const { forge, threads, deliver } = setup();
    await threads.update('reviews', KEY, { summaryCommentId: '55' });
    forge.failNext('updateComment', failure('unauthenticated'));
    expect(await deliver(record(), UPDATE)).toEqual({ ...failure('unauthenticated'), attempts: 1 });
    expect(forge.methods()).toEqual(['updateComment']);
  });

  it('a reply or a refusal on an update route is a new comment with the delivery marker; the summary id stays', async () => {
    const { forge, threads, deliver } = setup();
    await deliver(record(), UPDATE);
    expect(await deliver(record({ output: 'An answer', deliverAs: 'reply' }), UPDATE)).toEqual(ok('101'));
    expect(await deliver(record({ id: 9, output: 'No', deliverAs: 'refusal' }), UPDATE)).toEqual(ok('102'));
    expect(forge.comments.map((c) => c.body)).toEqual([`LGTM\n\n${MARKER}`, `An answer\n\n${REPLY_MARKER}`, `No\n\n${deliveryMarker(9)}`]);
    expect((await threads.get('reviews', KEY))?.summaryCommentId).toBe('100');
  });

  it('an empty answer gets the placeholder body', async () => {
    const { forge, deliver } = setup();
    await deliver(record({ output: '  ' }), UPDATE);
    expect(forge.comments[0]!.body).toBe(`_(The agent produced no output.)_\n\n${MARKER}`);
  });
});

describe('deliverPrComment: a comment of its own', () => {
  it('posts with the delivery marker, without looking first', async () => {
    const { forge, threads, deliver } = setup();
    expect(await deliver(record(), NEW_MODE)).toEqual(ok('100'));
    expect(forge.calls.map((c) => [c.method, ...c.args.slice(1)])).toEqual([['postComment', `LGTM\n\n${REPLY_MARKER}`]]);
    expect(await threads.get('reviews', KEY)).toBeUndefined();
  });

  it("in state delivering, the bot's comment carrying the marker is not posted again", async () => {
    const { forge, events, deliver } = setup();
    const id = forge.add(`LGTM\n\n${REPLY_MARKER}`);
    expect(await deliver(record({ state: 'delivering' }), NEW_MODE)).toEqual(ok(id, { foundPosted: true }));
    expect(forge.methods()).toEqual(['findComment']);
    expect(events).toEqual([]);
  });

  it('in state delivering, a marker in a stranger\'s comment does not count: the answer is posted', async () => {
    const { forge, deliver } = setup();
    forge.add(`fake\n\n${REPLY_MARKER}`, 'mallory');
    expect(await deliver(record({ state: 'delivering' }), NEW_MODE)).toEqual(ok('101', { attempts: 2 }));
    expect(forge.comments).toHaveLength(2);
  });

  it('a failed look in state delivering fails before anything is marked or posted', async () => {
    const { forge, events, deliver } = setup();
    forge.failNext('findComment', failure('unauthenticated'));
    expect(await deliver(record({ state: 'delivering' }), NEW_MODE)).toEqual({ ...failure('unauthenticated'), attempts: 1 });
    expect(events).toEqual([]);
  });

  it('a retryable failure, then a look (nothing there), then a success: three calls, the backoff waited', async () => {
    const { forge, sleeps, deliver } = setup();
    forge.failNext('postComment', failure('failed', true, 'HTTP 502'));
    expect(await deliver(record(), NEW_MODE)).toEqual(ok('100', { attempts: 2 }));
    expect(forge.methods()).toEqual(['postComment', 'findComment', 'postComment']);
    expect(sleeps).toEqual([10]);
  });

  it('a non-retryable failure is returned as it is, after one try', async () => {
    const { forge, deliver } = setup();
    forge.failNext('postComment', failure('not_found'));
    expect(await deliver(record(), NEW_MODE)).toEqual({ ...failure('not_found'), attempts: 1 });
    expect(forge.methods()).toEqual(['postComment']);
  });

  it('retryable failures stop after the attempts allowed', async () => {
    const { forge, sleeps, deliver } = setup();
    forge.failNext('postComment', failure('timeout', true), failure('timeout', true), failure('timeout', true));
    expect(await deliver(record(), NEW_MODE)).toEqual({ ...failure('timeout', true), attempts: 3 });
    expect(forge.methods()).toEqual(['postComment', 'findComment', 'postComment', 'findComment', 'postComment']);
    expect(sleeps).toEqual([10, 20]);
  });
});

describe('deliverPrComment: helper processes', () => {
  it('every write is told the onSpawn hook, so a gh left by a killed gateway can be stopped; reads are not', async () => {
    const forge = fakeForgeClient();
    const hooked: string[] = [];
    const onSpawn = (): void => undefined;
    const client = {
      ...forge.client,
      postComment: (pr: PrRef, body: string, options?: CallOptions) => (hooked.push(`post ${options?.onSpawn === onSpawn}`), forge.client.postComment(pr, body, options)),
      updateComment: (pr: PrRef, id: string, body: string, options?: CallOptions) => (hooked.push(`edit ${options?.onSpawn === onSpawn}`), forge.client.updateComment(pr, id, body, options)),
      findComment: (pr: PrRef, marker: string, options?: FindOptions) => (hooked.push(`find ${options?.onSpawn !== undefined}`), forge.client.findComment(pr, marker, options)),
    };
    const threads = memoryPrThreads();
    const deps = { client, threads, botLogin: 'iris-bot', onSpawn };
    await deliverPrComment(deps, record(), UPDATE, async () => undefined, new AbortController().signal);
    await deliverPrComment(deps, record({ id: 8 }), UPDATE, async () => undefined, new AbortController().signal);
    await deliverPrComment(deps, record({ id: 9, state: 'delivering', deliverAs: 'reply' }), NEW_MODE, async () => undefined, new AbortController().signal);
    expect(hooked).toEqual(['find false', 'post true', 'edit true', 'find false', 'post true']);
  });
});

describe("deliverPrComment: an answer in a finding's thread", () => {
  const FINDING_THREAD = { threadId: 'PRRT_1', commentId: '4000000001' };
  const payload = JSON.stringify({
    action: 'created',
    repository: { full_name: 'octo/widgets' },
    pull_request: { number: 12 },
    comment: { id: 4000000009, in_reply_to_id: 4000000001, body: '@iris why?', user: { login: 'alice' }, author_association: 'MEMBER' },
  });
  const question = (state: WebhookEventRecord['state']) => record({ event: 'pull_request_review_comment', payload, deliverAs: 'reply', state, output: 'Because.' });

  function setupThread(now: ThreadNow | null, replyFails = 0) {
    const forge = fakeForgeClient();
    const calls: string[] = [];
    let failures = replyFails;
    const poster: PrReviewPoster = {
      postsOneReview: true,
      postFindings: async () => ({ ok: true, value: [] }),
      findPosted: async () => ({ ok: true, value: null }),
      resolveOutdated: async () => ({ ok: true, value: undefined }),
      threadNow: async (_pr, thread) => {
        calls.push(`now ${thread.threadId}`);
        return { ok: true, value: now };
      },
      replyInThread: async (_pr, thread, body) => {
        calls.push(`reply ${thread.commentId} ${JSON.stringify(body)}`);
        if (failures > 0) {
          failures -= 1;
          return failure('timeout', true, 'gh timed out');
        }
        return { ok: true, value: { id: '4000000010' } };
      },
    };
    const findings = {
      byHostId: async (_route: string, _key: string, id: string) => (id === FINDING_THREAD.commentId ? { ...FINDING_THREAD } : undefined),
    } as unknown as PrFindings;
    const deliver = (rec: WebhookEventRecord) =>
      deliverPrComment(
        { client: forge.client, threads: memoryPrThreads(), botLogin: 'iris-bot', retry: { attempts: 3, backoffMs: [10, 20], sleep: async () => undefined }, review: { poster, findings } },
        rec,
        UPDATE,
        async () => undefined,
        new AbortController().signal,
      );
    return { calls, deliver, forge };
  }
  const body = JSON.stringify(`Because.\n\n${REPLY_MARKER}`);

  it('posts the answer in the thread with the delivery marker, without looking first; no PR comment', async () => {
    const { calls, deliver, forge } = setupThread({ resolved: false, replies: [] });
    expect(await deliver(question('done'))).toEqual({ ok: true, comment: { id: '4000000010' }, attempts: 1, edited: false, foundPosted: false });
    expect(calls).toEqual([`reply 4000000001 ${body}`]);
    expect(forge.methods()).toEqual([]);
  });

  it("after a crash, the bot's answer found in the thread is not posted again", async () => {
    const { calls, deliver } = setupThread({ resolved: false, replies: [{ id: '4000000010', body: `Because.\n\n${REPLY_MARKER}`, author: 'iris-bot' }] });
    expect(await deliver(question('delivering'))).toEqual({ ok: true, comment: { id: '4000000010' }, attempts: 1, edited: false, foundPosted: true });
    expect(calls).toEqual(['now PRRT_1']);
  });

  it("after a crash, a stranger's reply carrying the marker does not count: the answer is posted", async () => {
    const { calls, deliver } = setupThread({ resolved: false, replies: [{ id: '4000000011', body: `copied ${REPLY_MARKER}`, author: 'mallory' }] });
    expect((await deliver(question('delivering'))).ok).toBe(true);
    expect(calls).toEqual(['now PRRT_1', `reply 4000000001 ${body}`]);
  });

  it('a failed try is followed by a look before the retry: posted once', async () => {
    const { calls, deliver } = setupThread({ resolved: false, replies: [] }, 1);
    expect(await deliver(question('done'))).toEqual({ ok: true, comment: { id: '4000000010' }, attempts: 2, edited: false, foundPosted: false });
    expect(calls).toEqual([`reply 4000000001 ${body}`, 'now PRRT_1', `reply 4000000001 ${body}`]);
  });
});
