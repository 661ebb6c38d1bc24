// The payload `iris webhook test` sends: a realistic sample of the route's event, with the fields a
// route's prompt and deliver_extra use (`{repository.full_name}`, `{number}`, `{pull_request.title}`,
// GitLab's `{object_attributes.iid}`, …), so a test event runs as a real one would. The repository
// is a sample's own (example/iris-webhook-test), never a real one's.

export type SamplePayload = {
  /** What was sent, for the output: `a GitHub pull_request (opened) sample`. */
  readonly description: string;
  readonly payload: Readonly<Record<string, unknown>>;
};

const SENDER = { login: 'iris-webhook-test', type: 'User' };
const GITHUB_REPO = {
  name: 'iris-webhook-test',
  full_name: 'example/iris-webhook-test',
  owner: { login: 'example' },
  html_url: 'https://github.com/example/iris-webhook-test',
  default_branch: 'main',
  private: false,
};
const HEAD_SHA = '6dcb09b5b57875f334f61aebed695e2e4193db5e';
const BASE_SHA = '9049f1265b7d61be4a8904a9a27120d2064dab3b';
const PULL_REQUEST = {
  number: 7,
  title: 'Add a retry to the upload step',
  body: 'Uploads fail now and then on a slow network; this retries them three times with backoff.',
  state: 'open',
  draft: false,
  html_url: 'https://github.com/example/iris-webhook-test/pull/7',
  user: { login: 'mona' },
  head: { ref: 'retry-upload', sha: HEAD_SHA },
  base: { ref: 'main', sha: BASE_SHA },
  author_association: 'MEMBER',
};
const ISSUE = {
  number: 7,
  title: PULL_REQUEST.title,
  body: PULL_REQUEST.body,
  state: 'open',
  html_url: PULL_REQUEST.html_url,
  user: { login: 'mona' },
  author_association: 'MEMBER',
};
const COMMIT = {
  id: HEAD_SHA,
  message: 'Retry the upload step three times',
  timestamp: '2026-01-01T12:00:00Z',
  author: { name: 'Mona', email: 'mona@example.com', username: 'mona' },
  added: [],
  removed: [],
  modified: ['scripts/upload.sh'],
};
const GITLAB_PROJECT = {
  id: 4242,
  name: 'iris-webhook-test',
  path_with_namespace: 'example/iris-webhook-test',
  web_url: 'https://gitlab.com/example/iris-webhook-test',
  default_branch: 'main',
};
const GITLAB_USER = { id: 1, username: 'mona', name: 'Mona' };
const MERGE_REQUEST = {
  iid: 7,
  title: PULL_REQUEST.title,
  description: PULL_REQUEST.body,
  state: 'opened',
  action: 'open',
  source_branch: 'retry-upload',
  target_branch: 'main',
  url: 'https://gitlab.com/example/iris-webhook-test/-/merge_requests/7',
  last_commit: { id: HEAD_SHA, message: COMMIT.message },
};

/** Samples by event name, as the code hosts send them (GitHub's names are Gitea's and Forgejo's too). */
const SAMPLES: Readonly<Record<string, SamplePayload>> = {
  pull_request: {
    description: 'a GitHub pull_request (opened) sample',
    payload: { action: 'opened', number: 7, pull_request: PULL_REQUEST, repository: GITHUB_REPO, sender: SENDER },
  },
  issue_comment: {
    description: 'a GitHub issue_comment (created, on a pull request) sample',
    payload: {
      action: 'created',
      issue: { ...ISSUE, pull_request: { html_url: PULL_REQUEST.html_url } },
      comment: { id: 1001, body: 'Could you look at the error handling here?', user: { login: 'mona' }, author_association: 'MEMBER' },
      repository: GITHUB_REPO,
      sender: SENDER,
    },
  },
  pull_request_review_comment: {
    description: 'a GitHub pull_request_review_comment (created) sample',
    payload: {
      action: 'created',
      comment: { id: 1002, body: 'Is three retries enough?', path: 'scripts/upload.sh', line: 12, user: { login: 'mona' }, author_association: 'MEMBER' },
      pull_request: PULL_REQUEST,
      repository: GITHUB_REPO,
      sender: SENDER,
    },
  },
  issues: {
    description: 'a GitHub issues (opened) sample',
    payload: { action: 'opened', issue: { ...ISSUE, title: 'Uploads fail on a slow network' }, repository: GITHUB_REPO, sender: SENDER },
  },
  push: {
    description: 'a GitHub push (to main) sample',
    payload: {
      ref: 'refs/heads/main',
      before: BASE_SHA,
      after: HEAD_SHA,
      commits: [COMMIT],
      head_commit: COMMIT,
      pusher: { name: 'mona', email: 'mona@example.com' },
      repository: GITHUB_REPO,
      sender: SENDER,
    },
  },
  release: {
    description: 'a GitHub release (published) sample',
    payload: { action: 'published', release: { tag_name: 'v1.2.0', name: 'v1.2.0', body: 'Retries for uploads.', html_url: `${GITHUB_REPO.html_url}/releases/tag/v1.2.0` }, repository: GITHUB_REPO, sender: SENDER },
  },
  ping: {
    description: 'a GitHub ping sample',
    payload: { zen: 'Keep it logically awesome.', hook_id: 1, repository: GITHUB_REPO, sender: SENDER },
  },
  'Merge Request Hook': {
    description: 'a GitLab Merge Request Hook (open) sample',
    payload: { object_kind: 'merge_request', event_type: 'merge_request', user: GITLAB_USER, project: GITLAB_PROJECT, object_attributes: MERGE_REQUEST },
  },
  'Note Hook': {
    description: 'a GitLab Note Hook (a comment on a merge request) sample',
    payload: {
      object_kind: 'note',
      event_type: 'note',
      user: GITLAB_USER,
      project: GITLAB_PROJECT,
      object_attributes: { id: 1001, note: 'Could you look at the error handling here?', noteable_type: 'MergeRequest', url: `${MERGE_REQUEST.url}#note_1001` },
      merge_request: MERGE_REQUEST,
    },
  },
  'Push Hook': {
    description: 'a GitLab Push Hook (to main) sample',
    payload: {
      object_kind: 'push',
      event_name: 'push',
      ref: 'refs/heads/main',
      before: BASE_SHA,
      after: HEAD_SHA,
      checkout_sha: HEAD_SHA,
      user_username: 'mona',
      project: GITLAB_PROJECT,
      commits: [{ ...COMMIT, url: `${GITLAB_PROJECT.web_url}/-/commit/${HEAD_SHA}` }],
      total_commits_count: 1,
    },
  },
  'Issue Hook': {
    description: 'a GitLab Issue Hook (open) sample',
    payload: {
      object_kind: 'issue',
      event_type: 'issue',
      user: GITLAB_USER,
      project: GITLAB_PROJECT,
      object_attributes: { iid: 8, title: 'Uploads fail on a slow network', description: ISSUE.body, state: 'opened', action: 'open', url: `${GITLAB_PROJECT.web_url}/-/issues/8` },
    },
  },
};

const GENERIC: SamplePayload = { description: 'a generic test payload (no sample for this event)', payload: { action: 'test', test: true, sender: SENDER } };

/** The sample for an event, or the generic test payload for one without a sample. */
export function samplePayloadFor(event: string): SamplePayload {
  return Object.hasOwn(SAMPLES, event) ? (SAMPLES[event] as SamplePayload) : GENERIC;
}

/** The events with a sample, for help and docs. */
export const SAMPLE_EVENTS: readonly string[] = Object.keys(SAMPLES);
