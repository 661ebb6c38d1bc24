// A realistic GitHub `pull_request` "opened" delivery of about 8 KB: the shape GitHub sends (PR
// with user, head and base, repository, sender), trimmed of the long tail of `*_url` fields a real
// repository object carries, with a PR body that brings it to the target size. The body bytes and
// their signatures are the same for every request (GitHub signs the body; the delivery id is a
// header), so the load generator only makes a fresh `X-GitHub-Delivery` per request.
import { createHmac, randomUUID } from 'node:crypto';

export const TARGET_BYTES = 8 * 1024;

const API = 'https://api.github.com';
const WEB = 'https://github.com';

function user(login: string, id: number, type: 'User' | 'Organization' = 'User') {
  return {
    login,
    id,
    node_id: `MDQ6VXNlcj${id}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    url: `${API}/users/${login}`,
    html_url: `${WEB}/${login}`,
    type,
    user_view_type: 'public',
    site_admin: false,
  };
}

function repository(owner: ReturnType<typeof user>, name: string, id: number) {
  const full = `${owner.login}/${name}`;
  return {
    id,
    node_id: `R_kgDOJ${id}`,
    name,
    full_name: full,
    private: false,
    owner,
    html_url: `${WEB}/${full}`,
    description: 'A self-hosted agent service: webhooks in, reviews out.',
    fork: false,
    url: `${API}/repos/${full}`,
    clone_url: `${WEB}/${full}.git`,
    created_at: '2024-03-02T10:11:12Z',
    updated_at: '2025-06-30T08:01:02Z',
    pushed_at: '2025-07-01T09:14:55Z',
    size: 18234,
    stargazers_count: 412,
    watchers_count: 412,
    language: 'TypeScript',
    forks_count: 37,
    open_issues_count: 21,
    license: { key: 'mit', name: 'MIT License', spdx_id: 'MIT' },
    topics: ['agents', 'llm', 'webhooks'],
    visibility: 'public',
    default_branch: 'main',
  };
}

const PR_TEXT = [
  '## What',
  'The webhook inbox claims events in id order, so a burst from one repository starves the others.',
  'This change keeps a per-route cursor and round-robins the claims between routes that have work.',
  '',
  '## Why',
  'A monorepo push fans out into dozens of `pull_request` events; the review of a one-line fix in a',
  'small repository waited behind all of them. With the cursor each route gets its turn.',
  '',
  '## How',
  '- `claimNextRun` takes the route after the last one served (wrapping around)',
  '- the cursor lives in memory; a restart starts again from the first route, which is fine',
  '- a route with no accepted events is skipped in the same statement, so the claim stays one query',
  '',
  '## Tests',
  '- unit: two routes, one with 50 events, alternate claims',
  '- e2e: a burst of 200 deliveries on one route does not delay a single delivery on another',
  '',
  'Fixes #1187. Follows up on #1102 (the inbox) and #1150 (the worker pool).',
].join('\n');

/** The payload object, with `filler` characters appended to the PR body. */
function pullRequestOpened(filler: number) {
  const org = user('iris-dev', 139012211, 'Organization');
  const author = user('mkowalska', 4481230);
  const repo = repository(org, 'iris', 771230984);
  const fork = repository(author, 'iris', 771301552);
  const number = 1204;
  const prApi = `${API}/repos/${repo.full_name}/pulls/${number}`;
  const body = filler > 0 ? `${PR_TEXT}\n\n${'Notes: '.padEnd(filler, ' lorem ipsum dolor sit amet')}` : PR_TEXT;
  return {
    action: 'opened',
    number,
    pull_request: {
      url: prApi,
      id: 2012345678,
      node_id: 'PR_kwDOJx1a2M53xYz9',
      html_url: `${WEB}/${repo.full_name}/pull/${number}`,
      diff_url: `${WEB}/${repo.full_name}/pull/${number}.diff`,
      patch_url: `${WEB}/${repo.full_name}/pull/${number}.patch`,
      issue_url: `${API}/repos/${repo.full_name}/issues/${number}`,
      number,
      state: 'open',
      locked: false,
      title: 'inbox: round-robin claims between routes so one busy repository cannot starve the others',
      user: author,
      body,
      created_at: '2025-07-01T09:15:02Z',
      updated_at: '2025-07-01T09:15:02Z',
      closed_at: null,
      merged_at: null,
      merge_commit_sha: null,
      assignee: null,
      assignees: [],
      requested_reviewers: [user('tbrandt', 990311)],
      requested_teams: [],
      labels: [{ id: 5123456789, name: 'webhook', color: '1d76db', default: false }],
      milestone: null,
      draft: false,
      commits_url: `${prApi}/commits`,
      review_comments_url: `${prApi}/comments`,
      comments_url: `${API}/repos/${repo.full_name}/issues/${number}/comments`,
      statuses_url: `${API}/repos/${repo.full_name}/statuses/9f3c2e1b7a6d5c4b3a291807f6e5d4c3b2a19080`,
      head: { label: `${author.login}:inbox-fair-claims`, ref: 'inbox-fair-claims', sha: '9f3c2e1b7a6d5c4b3a291807f6e5d4c3b2a19080', user: author, repo: fork },
      base: { label: `${org.login}:main`, ref: 'main', sha: '4b1d0c9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c', user: org, repo },
      author_association: 'CONTRIBUTOR',
      auto_merge: null,
      active_lock_reason: null,
      merged: false,
      mergeable: null,
      rebaseable: null,
      mergeable_state: 'unknown',
      merged_by: null,
      comments: 0,
      review_comments: 0,
      maintainer_can_modify: true,
      commits: 3,
      additions: 148,
      deletions: 37,
      changed_files: 6,
    },
    repository: repo,
    organization: { login: org.login, id: org.id, node_id: org.node_id, url: `${API}/orgs/${org.login}`, description: 'Iris maintainers' },
    sender: author,
  };
}

export type SignedDelivery = {
  readonly body: Buffer;
  readonly signature256: string;
  readonly signature1: string;
  /** Fresh headers for one request (a new delivery id each call). */
  headers(): Record<string, string>;
};

export function signedPullRequest(secret: string, targetBytes = TARGET_BYTES): SignedDelivery {
  const bare = Buffer.byteLength(JSON.stringify(pullRequestOpened(0)));
  const body = Buffer.from(JSON.stringify(pullRequestOpened(Math.max(0, targetBytes - bare - 4))));
  const signature256 = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  const signature1 = `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`;
  return {
    body,
    signature256,
    signature1,
    headers: () => ({
      'content-type': 'application/json',
      'user-agent': 'GitHub-Hookshot/4e1a3c2',
      'x-github-event': 'pull_request',
      'x-github-delivery': randomUUID(),
      'x-github-hook-id': '482910377',
      'x-github-hook-installation-target-id': '771230984',
      'x-github-hook-installation-target-type': 'repository',
      'x-hub-signature': signature1,
      'x-hub-signature-256': signature256,
    }),
  };
}
