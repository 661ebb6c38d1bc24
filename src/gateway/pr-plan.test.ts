// The planner of PR-route events with an in-memory thread store and fake code hosts: plain events,
// pauses, incremental reviews of pushes, the bot's own comments, trust, and every command.
import { describe, expect, it } from 'vitest';
import { fakeForgeClient, fakePrForges, failure, memoryLog, memoryPrThreads, type FakeForge } from '../../test/helpers/pr-fakes.js';
import type { ForgeResult, PrRef } from '../delivery/pr-forge.js';
import { HELP_TEXT, PAUSED_TEXT, RESUMED_TEXT, refusalText } from '../webhook/pr-commands.js';
import type { RouteSnapshot } from '../webhook/routes.js';
import type { PrFinding, PrFindings } from '../store/pr-finding-types.js';
import { NOT_A_FINDING_THREAD, planPrEvent } from './pr-plan.js';

const OLD = '0123456789abcdef0123456789abcdef01234567';
const NEW = 'fedcba9876543210fedcba9876543210fedcba98';
const KEY = 'github:octo/widgets#12';
const GL_KEY = 'gitlab:group/project#4';

const route = (overrides: Partial<RouteSnapshot> = {}): RouteSnapshot => ({
  name: 'reviews',
  source: 'config',
  skills: [],
  deliver: 'forge_comment',
  deliver_extra: { mode: 'update' },
  session: 'per_pr',
  commands: true,
  ...overrides,
});

const pull = (action: string, sha = NEW) => ({
  action,
  number: 12,
  pull_request: { number: 12, title: 'Add it', head: { sha } },
  repository: { full_name: 'octo/widgets' },
});

const comment = (body: string, author = 'alice', association = 'MEMBER', action = 'created') => ({
  action,
  issue: { number: 12, title: 'Add it', pull_request: { url: 'https://api.github.com/repos/octo/widgets/pulls/12' } },
  comment: { id: 31, body, user: { login: author }, author_association: association },
  repository: { full_name: 'octo/widgets' },
});

const glNote = (body: string, userId = 42) => ({
  object_kind: 'note',
  user: { id: userId, username: 'carol' },
  project: { path_with_namespace: 'group/project' },
  object_attributes: { id: 7, note: body, noteable_type: 'MergeRequest' },
  merge_request: { iid: 4, title: 'MR', last_commit: { id: NEW } },
});

function setup(options: { gitlabAccess?: (userId: number) => ForgeResult<boolean>; github?: FakeForge } = {}) {
  const github = options.github ?? fakeForgeClient({ login: 'iris-bot' });
  const gitlab = fakeForgeClient({ login: 'iris-gl' });
  const threads = memoryPrThreads();
  const { forges, accessCalls } = fakePrForges({ github, gitlab }, options.gitlabAccess);
  const { log, lines } = memoryLog();
  const plan = (event: string, payload: Record<string, unknown>, snapshot = route()) => planPrEvent({ threads, forges, log }, snapshot, event, payload, new AbortController().signal);
  return { github, gitlab, threads, accessCalls, lines, plan };
}

describe('planPrEvent: changes', () => {
  it('an event about no PR is skipped', async () => {
    const { plan } = setup();
    const skip = { kind: 'skip', reason: 'the event is about no pull request or merge request' };
    expect(await plan('push', { ref: 'refs/heads/main', repository: { full_name: 'octo/widgets' } })).toEqual(skip);
    expect(await plan('issue_comment', { ...comment('/review'), issue: { number: 12 } })).toEqual(skip);
  });

  it('a label, an edit or a close starts no review', async () => {
    const { plan } = setup();
    for (const action of ['labeled', 'edited', 'closed']) {
      expect(await plan('pull_request', { action, number: 12, pull_request: { number: 12, head: { sha: 'a'.repeat(40) } }, repository: { full_name: 'octo/widgets' } })).toEqual({
        kind: 'skip',
        reason: `the action "${action}" starts no review (opened, reopened and pushes do)`,
      });
    }
  });

  it('an opened PR runs the route prompt as the summary, in the thread session', async () => {
    const { plan, threads } = setup();
    await threads.update('reviews', KEY, { sessionId: 'sess-9' });
    expect(await plan('pull_request', pull('opened'))).toMatchObject({ kind: 'run', prKey: KEY, sessionId: 'sess-9', prompt: { route: true }, deliverAs: 'summary' });
    const fresh = setup();
    expect(await fresh.plan('pull_request', pull('opened'))).toMatchObject({ kind: 'run', sessionId: null, prompt: { route: true }, deliverAs: 'summary' });
  });

  it.each(['opened', 'synchronize', 'reopened'])('paused: %s is skipped', async (action) => {
    const { plan, threads } = setup();
    await threads.update('reviews', KEY, { paused: true, reviewedSha: OLD });
    expect(await plan('pull_request', pull(action))).toEqual({ kind: 'skip', reason: 'automatic reviews are paused on this pull request (/resume turns them on)' });
  });

  it('a push with the reviewed head an ancestor: run with the compare range', async () => {
    const github = fakeForgeClient({ compare: { ok: true, value: { relation: 'ahead', commits: 2 } } });
    const { plan, threads } = setup({ github });
    await threads.update('reviews', KEY, { reviewedSha: OLD });
    const planned = await plan('pull_request', pull('synchronize'));
    expect(planned).toMatchObject({ kind: 'run', deliverAs: 'summary', prompt: { route: true } });
    expect(planned.kind === 'run' && planned.prompt.route ? planned.prompt.note : undefined).toContain(`(compare range ${OLD}..${NEW}, 2 commits)`);
    expect(github.calls.map((c) => [c.method, (c.args[0] as PrRef).repo, (c.args[0] as PrRef).number, c.args[1], c.args[2]])).toEqual([['compare', 'octo/widgets', 12, OLD, NEW]]);
  });

  it('a push of the head reviewed already is skipped without asking the host', async () => {
    const { plan, threads, github } = setup();
    await threads.update('reviews', KEY, { reviewedSha: NEW });
    expect(await plan('pull_request', pull('synchronize'))).toEqual({ kind: 'skip', reason: 'fedcba987654 was reviewed already' });
    expect(github.methods()).toEqual([]);
  });

  it('a failed compare: a full review with the "could not say" note, and a warning', async () => {
    const { plan, threads, github, lines } = setup();
    github.failNext('compare', failure('failed', true, 'HTTP 502'));
    await threads.update('reviews', KEY, { reviewedSha: OLD });
    expect(await plan('pull_request', pull('synchronize'))).toMatchObject({
      kind: 'run',
      deliverAs: 'summary',
      prompt: { route: true, note: 'The code host could not say how fedcba987654 relates to your last review (0123456789ab), so this is a full review: review the whole pull request again.' },
    });
    expect(lines).toEqual([
      { level: 'warn', fields: { route: 'reviews', pr: KEY, reason: 'HTTP 502' }, message: 'could not compare the pushed head with the last reviewed one; reviewing the whole pull request' },
    ]);
  });

  it('a push with nothing reviewed yet, or on a commands-only route, is a full review without a note', async () => {
    const { plan, threads, github } = setup();
    expect(await plan('pull_request', pull('synchronize'))).toMatchObject({ kind: 'run', prompt: { route: true } });
    await threads.update('reviews', KEY, { reviewedSha: OLD });
    const planned = await plan('pull_request', pull('synchronize'), route({ session: 'per_event' }));
    expect(planned).toEqual(expect.objectContaining({ kind: 'run', prompt: { route: true } }));
    expect(github.methods()).toEqual([]);
  });
});

describe('planPrEvent: comments', () => {
  it("skips the bot's own comment and anything carrying the marker", async () => {
    const { plan } = setup();
    expect(await plan('issue_comment', comment('/review', 'Iris-Bot'))).toEqual({ kind: 'skip', reason: "the bot's own comment" });
    expect(await plan('issue_comment', comment('done\n\n<!-- iris-delivery:3 -->', 'someone'))).toEqual({ kind: 'skip', reason: "a comment carrying Iris's marker" });
  });

  it('skips a comment that is no command on a commands route', async () => {
    const { plan } = setup();
    expect(await plan('issue_comment', comment('nice work'))).toEqual({ kind: 'skip', reason: 'not a command' });
    expect(await plan('issue_comment', comment('/review', 'alice', 'MEMBER', 'edited'))).toEqual({ kind: 'skip', reason: 'an edited or deleted comment' });
  });

  it('on a per_pr route without commands a human comment runs the route prompt as a reply', async () => {
    const { plan, threads } = setup();
    await threads.update('reviews', KEY, { sessionId: 'sess-1' });
    const snapshot = route({ commands: undefined });
    expect(await plan('issue_comment', comment('nice work', 'mallory', 'NONE'), snapshot)).toMatchObject({ kind: 'run', sessionId: 'sess-1', prompt: { route: true }, deliverAs: 'reply' });
    expect(await plan('issue_comment', comment('/pause', 'mallory', 'NONE'), snapshot)).toMatchObject({ kind: 'run', prompt: { route: true }, deliverAs: 'reply' });
    expect(await plan('issue_comment', comment('hi', 'iris-bot'), snapshot)).toEqual({ kind: 'skip', reason: "the bot's own comment" });
  });

  it('an untrusted command is refused once, then skipped', async () => {
    const { plan, threads } = setup();
    expect(await plan('issue_comment', comment('/review', 'mallory', 'NONE'))).toEqual({ kind: 'reply', text: refusalText('mallory'), refusal: true });
    // Marked refused when the refusal is delivered, not by the plan.
    expect(await threads.get('reviews', KEY)).toBeUndefined();
    await threads.update('reviews', KEY, { refusalSent: true });
    expect(await plan('issue_comment', comment('/review', 'mallory', 'CONTRIBUTOR'))).toEqual({
      kind: 'skip',
      reason: 'a command from a user without write access (refused before on this pull request)',
    });
  });

  it('a comment without an association is untrusted; associations are read case-insensitively', async () => {
    const { plan } = setup();
    const payload = comment('/help');
    const bare = { id: 31, body: '/help', user: { login: 'alice' } };
    expect(await plan('issue_comment', { ...payload, comment: bare })).toEqual({ kind: 'reply', text: refusalText('alice'), refusal: true });
    const other = setup();
    expect(await other.plan('issue_comment', comment('/help', 'alice', 'owner'))).toEqual({ kind: 'reply', text: HELP_TEXT });
  });

  it('/help, /pause and /resume reply with fixed text and switch the thread', async () => {
    const { plan, threads } = setup();
    expect(await plan('issue_comment', comment('/help', 'alice', 'COLLABORATOR'))).toEqual({ kind: 'reply', text: HELP_TEXT });
    expect(await plan('issue_comment', comment('/pause', 'alice', 'OWNER'))).toEqual({ kind: 'reply', text: PAUSED_TEXT });
    expect((await threads.get('reviews', KEY))?.paused).toBe(true);
    expect(await plan('pull_request', pull('synchronize'))).toMatchObject({ kind: 'skip' });
    expect(await plan('issue_comment', comment('/resume'))).toEqual({ kind: 'reply', text: RESUMED_TEXT });
    expect((await threads.get('reviews', KEY))?.paused).toBe(false);
    expect(await plan('pull_request', pull('synchronize'))).toMatchObject({ kind: 'run' });
  });

  it('/review runs the command prompt as the summary, /ask and a mention as replies', async () => {
    const { plan } = setup();
    expect(await plan('issue_comment', comment('/review'))).toMatchObject({
      kind: 'run',
      deliverAs: 'summary',
      prompt: { route: false, text: '@alice asked for a full review of pull request octo/widgets#12 ("Add it") with /review. Review the whole pull request.' },
    });
    expect(await plan('issue_comment', comment('/ask why?'))).toMatchObject({
      kind: 'run',
      deliverAs: 'reply',
      prompt: { route: false, text: expect.stringContaining('with /ask:\n\nwhy?\n\n') as unknown },
    });
    expect(await plan('issue_comment', comment('/describe'))).toMatchObject({ kind: 'run', deliverAs: 'reply', prompt: { route: false } });
    expect(await plan('issue_comment', comment('thoughts @iris?'))).toMatchObject({ kind: 'run', deliverAs: 'reply', prompt: { route: false, text: expect.stringContaining('thoughts @iris?') as unknown } });
  });

  it('/review works while paused', async () => {
    const { plan, threads } = setup();
    await threads.update('reviews', KEY, { paused: true });
    expect(await plan('issue_comment', comment('/review'))).toMatchObject({ kind: 'run', deliverAs: 'summary' });
  });

  it('a failed login lookup is logged and the comment is still read', async () => {
    const github = fakeForgeClient();
    github.failNext('whoAmI', failure('unauthenticated', false, 'gh auth login'));
    const { plan, lines } = setup({ github });
    expect(await plan('issue_comment', comment('/help'))).toEqual({ kind: 'reply', text: HELP_TEXT });
    expect(lines.map((l) => [l.level, l.fields])).toEqual([['warn', { route: 'reviews', pr: KEY, reason: 'gh auth login' }]]);
  });
});

describe('planPrEvent: GitLab access levels', () => {
  it('Developer access (30) may command', async () => {
    const { plan, accessCalls } = setup({ gitlabAccess: (id) => ({ ok: true, value: id === 42 }) });
    expect(await plan('Note Hook', glNote('/help'))).toEqual({ kind: 'reply', text: HELP_TEXT });
    expect(accessCalls).toEqual([{ pr: expect.objectContaining({ repo: 'group/project', number: 4 }) as unknown, userId: 42 }]);
  });

  it('Reporter access (20) is refused once', async () => {
    const { plan, threads } = setup({ gitlabAccess: () => ({ ok: true, value: false }) });
    expect(await plan('Note Hook', glNote('/review', 43))).toEqual({ kind: 'reply', text: refusalText('carol'), refusal: true });
    expect(await threads.get('reviews', GL_KEY)).toBeUndefined();
  });

  it('a failed access check fails the plan with the reason', async () => {
    const { plan } = setup({ gitlabAccess: () => failure('timeout', true, 'timed out after 30s') });
    expect(await plan('Note Hook', glNote('/review'))).toEqual({ kind: 'failed', reason: 'could not check whether @carol may command the bot: timed out after 30s' });
  });

  it('a note without a user id is untrusted without asking', async () => {
    const { plan, accessCalls } = setup();
    const payload = glNote('/review');
    expect(await plan('Note Hook', { ...payload, user: { username: 'carol' } })).toEqual({ kind: 'reply', text: refusalText('carol'), refusal: true });
    expect(accessCalls).toEqual([]);
  });

  it("the bot's GitLab login is its own", async () => {
    const { plan } = setup();
    expect(await plan('Note Hook', { ...glNote('/review'), user: { id: 9, username: 'iris-gl' } })).toEqual({ kind: 'skip', reason: "the bot's own comment" });
  });
});

describe('planPrEvent: review threads resolved or unresolved (GitHub)', () => {
  function withFinding(state: PrFinding['state'], threadId: string | null = 'PRRT_1') {
    const rows = new Map<string, PrFinding>([
      ['fp1', { route: 'reviews', prKey: KEY, fingerprint: 'fp1', path: 'a.ts', line: 3, lineText: 'x', title: 'Unchecked input', severity: 'major', state, threadId, commentId: '4001', eventId: 1, createdAt: 1, updatedAt: 1 }],
    ]);
    const findings = {
      record: async (input: Omit<PrFinding, 'createdAt' | 'updatedAt'>) => {
        rows.set(input.fingerprint, { ...input, createdAt: 1, updatedAt: 2 });
        return rows.get(input.fingerprint);
      },
      byHostId: async (routeName: string, key: string, id: string) => [...rows.values()].find((f) => f.route === routeName && f.prKey === key && (f.threadId === id || f.commentId === id)),
      setState: async (_r: string, _k: string, fingerprint: string, next: PrFinding['state']) => {
        const row = rows.get(fingerprint);
        if (row) rows.set(fingerprint, { ...row, state: next });
        return rows.get(fingerprint);
      },
    } as unknown as PrFindings;
    const threads = memoryPrThreads();
    const { forges } = fakePrForges({ github: fakeForgeClient({ login: 'iris-bot' }), gitlab: fakeForgeClient({ login: 'iris-gl' }) });
    const { log } = memoryLog();
    const plan = (action: string, thread: Record<string, unknown>, sender = 'erin') =>
      planPrEvent({ threads, forges, log, findings }, route(), 'pull_request_review_thread', { action, thread, pull_request: { number: 12 }, repository: { full_name: 'octo/widgets' }, sender: { login: sender } }, new AbortController().signal);
    return { rows, plan };
  }

  it('a person resolves an open finding\'s thread: kept as resolved, no run; unresolved again: open', async () => {
    const { rows, plan } = withFinding('open');
    expect(await plan('resolved', { node_id: 'PRRT_1', comments: [{ id: 4001 }] })).toEqual({ kind: 'skip', reason: 'the finding "Unchecked input" was resolved by @erin: kept as resolved' });
    expect(rows.get('fp1')?.state).toBe('resolved');
    expect(await plan('unresolved', { node_id: 'PRRT_1', comments: [] })).toEqual({ kind: 'skip', reason: 'the finding "Unchecked input" was unresolved by @erin: kept as open' });
    expect(rows.get('fp1')?.state).toBe('open');
  });

  it('found by its first comment when the thread id was never read: the id is kept from the event', async () => {
    const { rows, plan } = withFinding('answered', null);
    expect(await plan('resolved', { node_id: 'PRRT_7', comments: [{ id: 4001 }] })).toMatchObject({ kind: 'skip' });
    expect(rows.get('fp1')).toMatchObject({ state: 'resolved', threadId: 'PRRT_7' });
  });

  it("a resolve by the bot's own account changes nothing, whatever the finding's state", async () => {
    const { rows, plan } = withFinding('open');
    expect(await plan('resolved', { node_id: 'PRRT_1', comments: [] }, 'Iris-Bot')).toEqual({ kind: 'skip', reason: 'the thread was resolved by Iris itself' });
    expect(rows.get('fp1')?.state).toBe('open');
  });

  it('a person resolving or unresolving an outdated or dismissed finding changes nothing', async () => {
    for (const state of ['outdated', 'dismissed'] as const) {
      const { rows, plan } = withFinding(state);
      expect(await plan('resolved', { node_id: 'PRRT_1', comments: [] })).toEqual({ kind: 'skip', reason: `the finding "Unchecked input" is ${state}: a thread resolved leaves it so` });
      expect(await plan('unresolved', { node_id: 'PRRT_1', comments: [] })).toMatchObject({ kind: 'skip' });
      expect(rows.get('fp1')?.state).toBe(state);
    }
  });

  it('a thread that is no finding of Iris is skipped', async () => {
    const { plan } = withFinding('open');
    expect(await plan('resolved', { node_id: 'PRRT_9', comments: [{ id: 9 }] })).toEqual({ kind: 'skip', reason: NOT_A_FINDING_THREAD });
  });
});
