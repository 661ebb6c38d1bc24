// Posting a review's findings: recorded with their ids; after a crash the review is looked for by
// its delivery marker first (GitHub: found whole, nothing posted again); GitLab posts only what is
// missing; an outdated finding is answered, resolved and marked once; a thread a person resolved is
// left as it is.
import { describe, expect, it } from 'vitest';
import type { ForgeResult } from '../delivery/pr-forge.js';
import type { PostedFinding, PrReviewPoster, ReviewComment, ThreadNow } from '../delivery/pr-review-poster.js';
import type { PrFinding, PrFindingInput, PrFindings, PrReviewPlanRecord } from '../store/pr-finding-types.js';
import type { WebhookEventRecord } from '../store/webhook-types.js';
import type { ReviewPlan } from '../review/review-plan.js';
import { deliverReviewFindings } from './deliver-review.js';

function memoryFindings(initial: PrFindingInput[] = []): PrFindings & { rows: Map<string, PrFinding>; plans: PrReviewPlanRecord[] } {
  const rows = new Map<string, PrFinding>(initial.map((f) => [f.fingerprint, { ...f, createdAt: 1, updatedAt: 1 }]));
  const plans: PrReviewPlanRecord[] = [];
  return {
    rows,
    plans,
    list: async () => [...rows.values()],
    record: async (f) => {
      const row = { ...f, createdAt: 1, updatedAt: 1 };
      if (rows.get(f.fingerprint)?.state !== 'dismissed') rows.set(f.fingerprint, row);
      return rows.get(f.fingerprint)!;
    },
    setState: async (_r, _k, fp, state) => {
      const row = rows.get(fp);
      if (row && row.state !== 'dismissed') rows.set(fp, { ...row, state });
      return rows.get(fp);
    },
    byHostId: async () => undefined,
    savePlan: async (record) => void plans.push(record),
    plan: async () => undefined,
    // Delivery never prunes: a call would be a bug, so it fails the test.
    prune: async () => {
      throw new Error('prune is not the delivery\'s job');
    },
  };
}

function fakePoster(oneReview: boolean, found: PostedFinding[] | null, now: ThreadNow | null = { resolved: false, replies: [] }) {
  const calls: string[] = [];
  const posted: ReviewComment[][] = [];
  const poster: PrReviewPoster = {
    postsOneReview: oneReview,
    postFindings: async (_pr, review): Promise<ForgeResult<PostedFinding[]>> => {
      calls.push('post');
      posted.push([...review.comments]);
      return { ok: true, value: review.comments.map((c, i) => ({ fingerprint: c.fingerprint, commentId: String(100 + i), threadId: `T${i}` })) };
    },
    findPosted: async () => {
      calls.push('find');
      return { ok: true, value: found };
    },
    resolveOutdated: async (_pr, thread, reply) => {
      calls.push(`resolve ${thread.threadId} ${reply}`);
      return { ok: true, value: undefined };
    },
    replyInThread: async () => ({ ok: true, value: { id: '1' } }),
    threadNow: async (_pr, thread) => {
      calls.push(`now ${thread.threadId}`);
      return { ok: true, value: now };
    },
  };
  return { poster, calls, posted };
}

const comment = (fingerprint: string, line: number) => ({ fingerprint, path: 'a.ts', oldPath: 'a.ts', line, body: `b ${fingerprint}`, severity: 'major', title: `t ${fingerprint}`, lineText: `x${line}` });
const plan: ReviewPlan = {
  shas: { base: 'b', head: 'h', start: 's' },
  summary: 'S',
  inline: [comment('f1', 1), comment('f2', 2)],
  notPlaced: [],
  repeats: [],
  outdated: [{ fingerprint: 'old', path: 'a.ts', line: 9, severity: 'nit', title: 'Old', threadId: 'T9', commentId: '99' }],
};
const record = (state: WebhookEventRecord['state']) => ({ id: 7, route: 'r', state }) as WebhookEventRecord;
const oldFinding: PrFindingInput = { route: 'r', prKey: 'k', fingerprint: 'old', path: 'a.ts', line: 9, lineText: 'gone', title: 'Old', severity: 'nit', state: 'open', threadId: 'T9', commentId: '99', eventId: 3 };
const deps = (poster: PrReviewPoster, findings: PrFindings) => ({ poster, findings, botLogin: 'iris-bot', retried: <T>(call: () => Promise<ForgeResult<T>>) => call() });
const target = { pr: { repo: 'o/r', number: 1 }, prKey: 'k' };

describe('deliverReviewFindings', () => {
  it('posts the findings, records them open with their ids, and resolves the outdated one with the reply', async () => {
    const findings = memoryFindings([oldFinding]);
    const { poster, calls, posted } = fakePoster(true, null);
    expect(await deliverReviewFindings(deps(poster, findings), record('done'), target, plan, 'body', {})).toEqual({ ok: true, value: { posted: 2, outdated: 1, resolvedByPeople: 0 } });
    expect(calls).toEqual(['post', 'now T9', 'resolve T9 Outdated: the code this was about changed.\n\n<!-- iris-outdated:old -->']);
    expect(posted[0]!.map((c) => c.fingerprint)).toEqual(['f1', 'f2']);
    expect(findings.rows.get('f1')).toMatchObject({ state: 'open', commentId: '100', threadId: 'T0', eventId: 7, lineText: 'x1' });
    expect(findings.rows.get('old')?.state).toBe('outdated');
  });

  it('after a crash, a GitHub review found by its marker is taken whole: nothing is posted again', async () => {
    const findings = memoryFindings();
    const { poster, calls } = fakePoster(true, [{ fingerprint: 'f1', commentId: '5', threadId: 'A' }, { fingerprint: 'f2', commentId: '6', threadId: 'B' }]);
    await deliverReviewFindings(deps(poster, findings), record('delivering'), target, { ...plan, outdated: [] }, 'body', {});
    expect(calls).toEqual(['find']);
    expect([...findings.rows.values()].map((f) => [f.fingerprint, f.commentId])).toEqual([
      ['f1', '5'],
      ['f2', '6'],
    ]);
  });

  it('after a crash on GitLab, only the findings not found are posted', async () => {
    const findings = memoryFindings();
    const { poster, calls, posted } = fakePoster(false, [{ fingerprint: 'f1', commentId: '5', threadId: 'A' }]);
    await deliverReviewFindings(deps(poster, findings), record('delivering'), target, { ...plan, outdated: [] }, 'body', {});
    expect(calls).toEqual(['find', 'post']);
    expect(posted[0]!.map((c) => c.fingerprint)).toEqual(['f2']);
    expect(findings.rows.size).toBe(2);
  });

  it('an outdated finding no longer open (dismissed meanwhile) is left alone', async () => {
    const findings = memoryFindings([{ ...oldFinding, state: 'dismissed' }]);
    const { poster, calls } = fakePoster(true, null);
    expect(await deliverReviewFindings(deps(poster, findings), record('done'), target, { ...plan, inline: [] }, 'body', {})).toEqual({ ok: true, value: { posted: 0, outdated: 0, resolvedByPeople: 0 } });
    expect(calls).toEqual([]);
  });

  const outdatedOnly = { ...plan, inline: [] };
  const marker = '<!-- iris-outdated:old -->';

  it('a thread a person resolved first gets no reply: its finding is marked resolved', async () => {
    const findings = memoryFindings([oldFinding]);
    const { poster, calls } = fakePoster(true, null, { resolved: true, replies: [{ id: '5', body: 'fixed it', author: 'alice' }] });
    expect(await deliverReviewFindings(deps(poster, findings), record('done'), target, outdatedOnly, 'body', {})).toEqual({ ok: true, value: { posted: 0, outdated: 0, resolvedByPeople: 1 } });
    expect(calls).toEqual(['now T9']);
    expect(findings.rows.get('old')?.state).toBe('resolved');
    // What the delivery did is kept with the event's plan (its story says so later, whatever the finding's state becomes).
    expect(findings.plans.map((p) => [p.eventId, p.route, p.prKey, (JSON.parse(p.plan) as ReviewPlan).resolvedFirst])).toEqual([[7, 'r', 'k', ['old']]]);
  });

  it('a resolve that fails after the reply went out: the thread is read again, and the retry only resolves', async () => {
    const findings = memoryFindings([oldFinding]);
    const calls: string[] = [];
    const thread = { resolved: false, replies: [] as Array<{ id: string; body: string; author: string | null }> };
    let resolveFails = 1;
    const poster: PrReviewPoster = {
      ...fakePoster(true, null).poster,
      threadNow: async () => {
        calls.push('now');
        return { ok: true, value: { resolved: thread.resolved, replies: [...thread.replies] } };
      },
      resolveOutdated: async (_pr, _thread, reply) => {
        calls.push(`resolve ${reply === null ? 'without a reply' : 'with the reply'}`);
        if (reply !== null) thread.replies.push({ id: '5', body: reply, author: 'iris-bot' });
        if (resolveFails-- > 0) return { ok: false, code: 'failed', retryable: true, message: 'HTTP 502' };
        thread.resolved = true;
        return { ok: true, value: undefined };
      },
    };
    const retried = async <T>(call: () => Promise<ForgeResult<T>>): Promise<ForgeResult<T>> => {
      const first = await call();
      return first.ok || !first.retryable ? first : call();
    };
    expect(await deliverReviewFindings({ poster, findings, botLogin: 'iris-bot', retried }, record('done'), target, outdatedOnly, 'body', {})).toEqual({ ok: true, value: { posted: 0, outdated: 1, resolvedByPeople: 0 } });
    expect(calls).toEqual(['now', 'resolve with the reply', 'now', 'resolve without a reply']);
    expect(thread.replies).toHaveLength(1);
    expect(findings.rows.get('old')?.state).toBe('outdated');
  });

  it('after a crash, the outdated reply found in the thread is not posted again: the thread is only resolved', async () => {
    const findings = memoryFindings([oldFinding]);
    const { poster, calls } = fakePoster(true, null, { resolved: false, replies: [{ id: '5', body: `Outdated: the code this was about changed.\n\n${marker}`, author: 'Iris-Bot' }] });
    expect(await deliverReviewFindings(deps(poster, findings), record('delivering'), target, outdatedOnly, 'body', {})).toEqual({ ok: true, value: { posted: 0, outdated: 1, resolvedByPeople: 0 } });
    expect(calls).toEqual(['now T9', 'resolve T9 null']);
    expect(findings.rows.get('old')?.state).toBe('outdated');
  });

  it('replied and resolved before the crash: only the record is marked', async () => {
    const findings = memoryFindings([oldFinding]);
    const { poster, calls } = fakePoster(true, null, { resolved: true, replies: [{ id: '5', body: `Outdated.\n\n${marker}`, author: 'iris-bot' }] });
    await deliverReviewFindings(deps(poster, findings), record('delivering'), target, outdatedOnly, 'body', {});
    expect(calls).toEqual(['now T9']);
    expect(findings.rows.get('old')?.state).toBe('outdated');
  });

  it("the marker in a stranger's reply is not Iris's reply: the reply is posted", async () => {
    const findings = memoryFindings([oldFinding]);
    const { poster, calls } = fakePoster(true, null, { resolved: false, replies: [{ id: '5', body: `copied ${marker}`, author: 'mallory' }] });
    await deliverReviewFindings(deps(poster, findings), record('delivering'), target, outdatedOnly, 'body', {});
    expect(calls).toEqual(['now T9', `resolve T9 Outdated: the code this was about changed.\n\n${marker}`]);
  });

  it('a deleted thread is marked outdated with nothing posted', async () => {
    const findings = memoryFindings([oldFinding]);
    const { poster, calls } = fakePoster(true, null, null);
    expect(await deliverReviewFindings(deps(poster, findings), record('done'), target, outdatedOnly, 'body', {})).toEqual({ ok: true, value: { posted: 0, outdated: 1, resolvedByPeople: 0 } });
    expect(calls).toEqual(['now T9']);
    expect(findings.rows.get('old')?.state).toBe('outdated');
  });
});
