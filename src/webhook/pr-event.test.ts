// Which pull request an event is about: GitHub and GitLab payloads in the shapes their webhook
// documentation shows, ill-typed fields, the PR key, the markers and the lane an event queues in.
import { describe, expect, it } from 'vitest';
import { IRIS_MARKER, eventLane, isGitlabEvent, prEventOf, prKey, summaryMarker } from './pr-event.js';

const SHA = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821';
const OLD_SHA = '0123456789abcdef0123456789abcdef01234567';

function ghPullRequest(action: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    action,
    number: 12,
    pull_request: {
      url: 'https://api.github.com/repos/octo/widgets/pulls/12',
      number: 12,
      state: 'open',
      title: 'Add the frobnicator',
      user: { login: 'alice' },
      head: { ref: 'feature', sha: SHA },
      base: { ref: 'main', sha: OLD_SHA },
    },
    repository: { id: 1, name: 'widgets', full_name: 'octo/widgets', owner: { login: 'octo' } },
    sender: { login: 'alice' },
    ...overrides,
  };
}

function ghIssueComment(action: string, onPr: boolean, comment: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    action,
    issue: {
      number: 12,
      title: 'Add the frobnicator',
      user: { login: 'alice' },
      ...(onPr ? { pull_request: { url: 'https://api.github.com/repos/octo/widgets/pulls/12', html_url: 'https://github.com/octo/widgets/pull/12' } } : {}),
    },
    comment: { id: 987654321, body: '/review', user: { login: 'bob' }, author_association: 'MEMBER', ...comment },
    repository: { full_name: 'octo/widgets' },
    sender: { login: 'bob' },
  };
}

function glMergeRequest(action: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    object_kind: 'merge_request',
    event_type: 'merge_request',
    user: { id: 7, username: 'root' },
    project: { id: 1, path_with_namespace: 'group/sub/project' },
    object_attributes: { id: 99, iid: 4, title: 'MS-Viewport', state: 'opened', action, last_commit: { id: SHA, message: 'fix' }, ...extra },
  };
}

function glNote(noteableType: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    object_kind: 'note',
    event_type: 'note',
    user: { id: 42, username: 'carol', name: 'Carol' },
    project: { id: 5, path_with_namespace: 'gitlab-org/gitlab-test' },
    object_attributes: { id: 1244, note: '/ask why?', noteable_type: noteableType, ...extra },
    ...(noteableType === 'MergeRequest' ? { merge_request: { iid: 1, title: 'Tempora et eos debitis', last_commit: { id: SHA } } } : { issue: { iid: 17, title: 'A bug' } }),
  };
}

describe('prEventOf: GitHub pull_request', () => {
  it.each([
    ['opened', 'opened'],
    ['synchronize', 'push'],
    ['reopened', 'reopened'],
    ['ready_for_review', 'reopened'],
    ['closed', 'other'],
    ['edited', 'other'],
  ] as const)('%s → %s', (action, change) => {
    expect(prEventOf('pull_request', ghPullRequest(action))).toEqual({
      forge: 'github',
      repo: 'octo/widgets',
      number: 12,
      kind: 'change',
      change,
      action,
      headSha: SHA,
      title: 'Add the frobnicator',
    });
  });

  it('falls back to the top-level number and leaves out the head and title when absent', () => {
    const payload = { action: 'opened', number: 3, pull_request: {}, repository: { full_name: 'octo/widgets' } };
    expect(prEventOf('pull_request', payload)).toEqual({ forge: 'github', repo: 'octo/widgets', number: 3, kind: 'change', change: 'opened', action: 'opened' });
  });

  it.each([
    ['a number as a string', { number: '12', pull_request: { number: '12' } }],
    ['a negative number', { number: -12, pull_request: { number: -12 } }],
    ['a zero number', { number: 0, pull_request: { number: 0 } }],
    ['a fractional number', { number: 1.5, pull_request: { number: 1.5 } }],
    ['no repository', { repository: undefined }],
    ['a repository without full_name', { repository: { name: 'widgets' } }],
  ])('is undefined for %s', (_what, overrides) => {
    expect(prEventOf('pull_request', ghPullRequest('opened', overrides))).toBeUndefined();
  });
});

describe('prEventOf: GitHub comments', () => {
  it('reads a new issue comment on a PR', () => {
    expect(prEventOf('issue_comment', ghIssueComment('created', true))).toEqual({
      forge: 'github',
      repo: 'octo/widgets',
      number: 12,
      kind: 'comment',
      comment: { id: '987654321', body: '/review', author: 'bob', association: 'MEMBER', created: true },
      title: 'Add the frobnicator',
    });
  });

  it('is undefined for a comment on a plain issue', () => {
    expect(prEventOf('issue_comment', ghIssueComment('created', false))).toBeUndefined();
  });

  it.each(['edited', 'deleted'])('marks an %s comment as not created', (action) => {
    const pr = prEventOf('issue_comment', ghIssueComment(action, true));
    expect(pr?.kind === 'comment' ? pr.comment.created : 'not a comment').toBe(false);
  });

  it('reads a review comment with the PR head and title', () => {
    const payload = {
      action: 'created',
      comment: { id: 555, body: '@iris is this right?', user: { login: 'dave' }, author_association: 'CONTRIBUTOR', path: 'src/a.ts', line: 3 },
      pull_request: { number: 12, title: 'Add the frobnicator', head: { sha: SHA } },
      repository: { full_name: 'octo/widgets' },
    };
    expect(prEventOf('pull_request_review_comment', payload)).toEqual({
      forge: 'github',
      repo: 'octo/widgets',
      number: 12,
      kind: 'comment',
      comment: { id: '555', body: '@iris is this right?', author: 'dave', association: 'CONTRIBUTOR', created: true },
      headSha: SHA,
      title: 'Add the frobnicator',
    });
  });

  const threadEvent = (action: string, thread: unknown = { node_id: 'PRRT_kwDOA1', comments: [{ id: 4001, body: 'finding' }, { id: 4002, body: 'reply' }] }) => ({
    action,
    thread,
    pull_request: { number: 12, title: 'Add the frobnicator', head: { sha: SHA } },
    repository: { full_name: 'octo/widgets' },
    sender: { login: 'erin' },
  });

  it('reads a review thread resolved or unresolved: its node id, first comment and who did it', () => {
    expect(prEventOf('pull_request_review_thread', threadEvent('resolved'))).toEqual({
      forge: 'github',
      repo: 'octo/widgets',
      number: 12,
      kind: 'thread',
      thread: { nodeId: 'PRRT_kwDOA1', firstCommentId: '4001', resolved: true, by: 'erin' },
      headSha: SHA,
      title: 'Add the frobnicator',
    });
    expect(prEventOf('pull_request_review_thread', threadEvent('unresolved', { node_id: 'PRRT_kwDOA1', comments: [] }))).toMatchObject({ kind: 'thread', thread: { nodeId: 'PRRT_kwDOA1', resolved: false } });
  });

  it.each([
    ['another action', threadEvent('created')],
    ['no node id', threadEvent('resolved', { comments: [] })],
    ['a thread that is not an object', threadEvent('resolved', 'PRRT_1')],
  ])('a review thread event is undefined for %s', (_what, payload) => {
    expect(prEventOf('pull_request_review_thread', payload)).toBeUndefined();
  });

  it('accepts a comment id given as digits, and an empty body', () => {
    const pr = prEventOf('issue_comment', ghIssueComment('created', true, { id: '77', body: '' }));
    expect(pr).toMatchObject({ kind: 'comment', comment: { id: '77', body: '' } });
  });

  it.each([
    ['a comment id that is not digits', { id: 'abc' }],
    ['no comment author', { user: {} }],
    ['a fractional id', { id: 1.5 }],
  ])('is undefined for %s', (_what, comment) => {
    expect(prEventOf('issue_comment', ghIssueComment('created', true, comment))).toBeUndefined();
  });

  it('is undefined for an issue number given as a string, and for other events', () => {
    const payload = ghIssueComment('created', true);
    expect(prEventOf('issue_comment', { ...payload, issue: { number: '12', pull_request: {} } })).toBeUndefined();
    expect(prEventOf('push', { ref: 'refs/heads/main', repository: { full_name: 'octo/widgets' } })).toBeUndefined();
  });
});

describe('prEventOf: GitLab', () => {
  it.each([
    ['open', {}, 'opened'],
    ['reopen', {}, 'reopened'],
    ['update', { oldrev: OLD_SHA }, 'push'],
    ['update', {}, 'other'],
    ['update', { oldrev: '' }, 'other'],
    ['close', {}, 'other'],
    ['merge', {}, 'other'],
  ] as const)('a Merge Request Hook %s %j → %s', (action, extra, change) => {
    expect(prEventOf('Merge Request Hook', glMergeRequest(action, extra))).toEqual({
      forge: 'gitlab',
      repo: 'group/sub/project',
      number: 4,
      kind: 'change',
      change,
      action,
      headSha: SHA,
      title: 'MS-Viewport',
    });
  });

  it('reads a Note Hook on a merge request, with the author id and no association', () => {
    expect(prEventOf('Note Hook', glNote('MergeRequest'))).toEqual({
      forge: 'gitlab',
      repo: 'gitlab-org/gitlab-test',
      number: 1,
      kind: 'comment',
      comment: { id: '1244', body: '/ask why?', author: 'carol', authorId: 42, created: true },
      headSha: SHA,
      title: 'Tempora et eos debitis',
    });
  });

  it('a note with action create is created, with action update is not', () => {
    expect(prEventOf('Note Hook', glNote('MergeRequest', { action: 'create' }))).toMatchObject({ comment: { created: true } });
    expect(prEventOf('Note Hook', glNote('MergeRequest', { action: 'update' }))).toMatchObject({ comment: { created: false } });
  });

  it('is undefined for a note on an issue, a commit or a snippet', () => {
    expect(prEventOf('Note Hook', glNote('Issue'))).toBeUndefined();
    expect(prEventOf('Note Hook', glNote('Commit'))).toBeUndefined();
    expect(prEventOf('Note Hook', glNote('Snippet'))).toBeUndefined();
  });

  it('is undefined for an iid given as a string, a missing project, or a push hook', () => {
    expect(prEventOf('Merge Request Hook', glMergeRequest('open', { iid: '4' }))).toBeUndefined();
    expect(prEventOf('Merge Request Hook', { ...glMergeRequest('open'), project: {} })).toBeUndefined();
    expect(prEventOf('Push Hook', { object_kind: 'push', project: { path_with_namespace: 'a/b' } })).toBeUndefined();
  });

  it('knows GitLab by the header suffix or by object_kind', () => {
    expect(isGitlabEvent('Merge Request Hook', {})).toBe(true);
    expect(isGitlabEvent('whatever', { object_kind: 'note' })).toBe(true);
    expect(isGitlabEvent('pull_request', { action: 'opened' })).toBe(false);
  });
});

describe('keys and markers', () => {
  it('prKey is forge:repo#number', () => {
    expect(prKey({ forge: 'github', repo: 'octo/widgets', number: 12 })).toBe('github:octo/widgets#12');
    expect(prKey({ forge: 'gitlab', repo: 'group/sub/project', number: 4 })).toBe('gitlab:group/sub/project#4');
  });

  it('summaryMarker names the route and the PR', () => {
    expect(summaryMarker('reviews', { repo: 'octo/widgets', number: 12 })).toBe('<!-- iris:reviews:octo/widgets#12 -->');
  });

  it('IRIS_MARKER matches the summary and the delivery markers, nothing else', () => {
    expect(IRIS_MARKER.test(summaryMarker('reviews', { repo: 'o/n', number: 1 }))).toBe(true);
    expect(IRIS_MARKER.test('answer\n\n<!-- iris-delivery:17 -->')).toBe(true);
    expect(IRIS_MARKER.test('<!--iris:x-->')).toBe(true);
    expect(IRIS_MARKER.test('<!-- a note for iris -->')).toBe(false);
    expect(IRIS_MARKER.test('iris: please review')).toBe(false);
  });
});

describe('eventLane', () => {
  const route = (session: string, commands: boolean, coalesce_seconds = 30) => ({ name: 'route', session, commands, coalesce_seconds });
  const AT = 1_700_000_000_000;

  it('is undefined on a route with neither a session per PR nor commands', () => {
    expect(eventLane(route('per_event', false), 'pull_request', ghPullRequest('synchronize'), AT)).toBeUndefined();
  });

  it('is undefined for an event about no PR', () => {
    expect(eventLane(route('per_pr', true), 'issue_comment', ghIssueComment('created', false), AT)).toBeUndefined();
    expect(eventLane(route('per_pr', true), 'push', { repository: { full_name: 'octo/widgets' } }, AT)).toBeUndefined();
  });

  it('a push on a per_pr route waits coalesce_seconds', () => {
    expect(eventLane(route('per_pr', false), 'pull_request', ghPullRequest('synchronize'), AT)).toEqual({ lane: 'route|github:octo/widgets#12', runAfter: AT + 30_000 });
    expect(eventLane(route('per_pr', true, 5), 'Merge Request Hook', glMergeRequest('update', { oldrev: OLD_SHA }), AT)).toEqual({
      lane: 'route|gitlab:group/sub/project#4',
      runAfter: AT + 5_000,
    });
  });

  it('no wait with coalesce 0, for other changes, for comments', () => {
    expect(eventLane(route('per_pr', false, 0), 'pull_request', ghPullRequest('synchronize'), AT)).toEqual({ lane: 'route|github:octo/widgets#12' });
    expect(eventLane(route('per_pr', false), 'pull_request', ghPullRequest('opened'), AT)).toEqual({ lane: 'route|github:octo/widgets#12' });
    expect(eventLane(route('per_pr', true), 'issue_comment', ghIssueComment('created', true), AT)).toEqual({ lane: 'route|github:octo/widgets#12' });
  });

  it('a commands-only route queues a push in the lane without waiting', () => {
    expect(eventLane(route('per_event', true), 'pull_request', ghPullRequest('synchronize'), AT)).toEqual({ lane: 'route|github:octo/widgets#12' });
  });
});
