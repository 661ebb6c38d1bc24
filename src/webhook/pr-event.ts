// Which pull request a webhook event is about, read from the payload by the event's kind: GitHub's
// `pull_request`, `issue_comment` (on a PR), `pull_request_review_comment` and
// `pull_request_review_thread` (a review thread resolved or unresolved), GitLab's
// `Merge Request Hook` and `Note Hook` (on a merge request). Pure: the session per PR, the comment
// commands and the delivery target all start here.
import { lookupPath } from './payload-path.js';

export type Forge = 'github' | 'gitlab';

/** What happened to the PR itself; `push` is new commits on its branch. */
export type PrChange = 'opened' | 'reopened' | 'push' | 'other';

export type PrComment = {
  /** The host's id of the comment (GitHub comment id, GitLab note id). */
  readonly id: string;
  readonly body: string;
  readonly author: string;
  /** GitLab's numeric user id (its access level is asked of the API); absent on GitHub. */
  readonly authorId?: number;
  /** GitHub's `author_association` (OWNER, MEMBER, …); absent on GitLab. */
  readonly association?: string;
  /** False for an edit or a deletion: only a new comment is a command. */
  readonly created: boolean;
  /**
   * The review thread the comment replies in: GitHub's `in_reply_to_id` (the thread's first
   * comment), GitLab's `discussion_id`. Absent on a comment of the PR's conversation.
   */
  readonly threadOf?: string;
};

/** A review thread resolved or unresolved on GitHub (`pull_request_review_thread`). */
export type PrThreadChange = {
  /** The thread's GraphQL node id. */
  readonly nodeId: string;
  /** Its first comment's id (the comment that started it), when the payload lists it. */
  readonly firstCommentId?: string;
  readonly resolved: boolean;
  /** Who resolved or unresolved it. */
  readonly by?: string;
};

export type PrEvent = {
  readonly forge: Forge;
  /** owner/name, or GitLab's path_with_namespace. */
  readonly repo: string;
  /** The PR number, or the merge request's iid. */
  readonly number: number;
  /** The head commit when the payload names it. */
  readonly headSha?: string;
  readonly title?: string;
} & (
  | { readonly kind: 'change'; readonly change: PrChange; readonly action: string }
  | { readonly kind: 'comment'; readonly comment: PrComment }
  | { readonly kind: 'thread'; readonly thread: PrThreadChange }
);

type Payload = Readonly<Record<string, unknown>>;

const text = (payload: Payload, path: string): string | undefined => {
  const found = lookupPath(payload, path);
  return found.found && typeof found.value === 'string' && found.value !== '' ? found.value : undefined;
};

const positiveInt = (payload: Payload, path: string): number | undefined => {
  const found = lookupPath(payload, path);
  const value = found.found ? found.value : undefined;
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
};

const idText = (payload: Payload, path: string): string | undefined => {
  const found = lookupPath(payload, path);
  if (!found.found) return undefined;
  if (typeof found.value === 'number' && Number.isSafeInteger(found.value)) return String(found.value);
  return typeof found.value === 'string' && /^[0-9]+$/.test(found.value) ? found.value : undefined;
};

/** GitLab's header names end in " Hook"; its payloads say what they are in `object_kind`. */
export function isGitlabEvent(event: string, payload: Payload): boolean {
  return / Hook$/.test(event) || typeof payload.object_kind === 'string';
}

/** A route that takes any of GitLab's events (`Merge Request Hook`, `Note Hook`, …). */
export function takesGitlabEvents(events: readonly string[]): boolean {
  return events.some((event) => / Hook$/.test(event));
}

/** A route that takes GitHub's (or another host's) events, or every event (an empty list). */
export function takesGithubEvents(events: readonly string[]): boolean {
  return events.length === 0 || events.some((event) => !/ Hook$/.test(event));
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function githubChange(action: string | undefined): PrChange {
  if (action === 'opened') return 'opened';
  if (action === 'reopened' || action === 'ready_for_review') return 'reopened';
  if (action === 'synchronize') return 'push';
  return 'other';
}

function gitlabChange(action: string | undefined, payload: Payload): PrChange {
  if (action === 'open') return 'opened';
  if (action === 'reopen') return 'reopened';
  // An `update` carries `oldrev` only when commits were pushed; otherwise it is an edit of the MR.
  if (action === 'update' && text(payload, 'object_attributes.oldrev') !== undefined) return 'push';
  return 'other';
}

function fromGithub(event: string, payload: Payload): PrEvent | undefined {
  const repo = text(payload, 'repository.full_name');
  if (repo === undefined) return undefined;
  const action = text(payload, 'action') ?? '';
  if (event === 'pull_request') {
    const number = positiveInt(payload, 'pull_request.number') ?? positiveInt(payload, 'number');
    if (number === undefined) return undefined;
    return {
      forge: 'github',
      repo,
      number,
      kind: 'change',
      change: githubChange(action),
      action,
      ...optional('headSha', text(payload, 'pull_request.head.sha')),
      ...optional('title', text(payload, 'pull_request.title')),
    };
  }
  if (event === 'pull_request_review_thread') return threadChange(repo, action, payload);
  const onPr = event === 'pull_request_review_comment' || (event === 'issue_comment' && lookupPath(payload, 'issue.pull_request').found);
  if (!onPr) return undefined;
  const number = event === 'issue_comment' ? positiveInt(payload, 'issue.number') : positiveInt(payload, 'pull_request.number');
  const id = idText(payload, 'comment.id');
  const author = text(payload, 'comment.user.login');
  if (number === undefined || id === undefined || author === undefined) return undefined;
  return {
    forge: 'github',
    repo,
    number,
    kind: 'comment',
    comment: {
      id,
      body: text(payload, 'comment.body') ?? '',
      author,
      ...optional('association', text(payload, 'comment.author_association')),
      created: action === 'created',
      ...optional('threadOf', event === 'pull_request_review_comment' ? idText(payload, 'comment.in_reply_to_id') : undefined),
    },
    ...optional('headSha', text(payload, 'pull_request.head.sha')),
    ...optional('title', text(payload, event === 'issue_comment' ? 'issue.title' : 'pull_request.title')),
  };
}

function threadChange(repo: string, action: string, payload: Payload): PrEvent | undefined {
  const number = positiveInt(payload, 'pull_request.number');
  const nodeId = text(payload, 'thread.node_id');
  if (number === undefined || nodeId === undefined || (action !== 'resolved' && action !== 'unresolved')) return undefined;
  return {
    forge: 'github',
    repo,
    number,
    kind: 'thread',
    thread: { nodeId, resolved: action === 'resolved', ...optional('firstCommentId', idText(payload, 'thread.comments.0.id')), ...optional('by', text(payload, 'sender.login')) },
    ...optional('headSha', text(payload, 'pull_request.head.sha')),
    ...optional('title', text(payload, 'pull_request.title')),
  };
}

function fromGitlab(payload: Payload): PrEvent | undefined {
  const repo = text(payload, 'project.path_with_namespace');
  if (repo === undefined) return undefined;
  const kind = text(payload, 'object_kind');
  if (kind === 'merge_request') {
    const number = positiveInt(payload, 'object_attributes.iid');
    if (number === undefined) return undefined;
    const action = text(payload, 'object_attributes.action') ?? '';
    return {
      forge: 'gitlab',
      repo,
      number,
      kind: 'change',
      change: gitlabChange(action, payload),
      action,
      ...optional('headSha', text(payload, 'object_attributes.last_commit.id')),
      ...optional('title', text(payload, 'object_attributes.title')),
    };
  }
  if (kind === 'note' && text(payload, 'object_attributes.noteable_type') === 'MergeRequest') {
    const number = positiveInt(payload, 'merge_request.iid');
    const id = idText(payload, 'object_attributes.id');
    const author = text(payload, 'user.username');
    if (number === undefined || id === undefined || author === undefined) return undefined;
    // GitLab sends a Note Hook for new notes only; an edit comes with `action: update` in newer versions.
    const action = text(payload, 'object_attributes.action');
    return {
      forge: 'gitlab',
      repo,
      number,
      kind: 'comment',
      comment: {
        id,
        body: text(payload, 'object_attributes.note') ?? '',
        author,
        ...optional('authorId', positiveInt(payload, 'user.id')),
        created: action === undefined || action === 'create',
        ...optional('threadOf', text(payload, 'object_attributes.discussion_id')),
      },
      ...optional('headSha', text(payload, 'merge_request.last_commit.id')),
      ...optional('title', text(payload, 'merge_request.title')),
    };
  }
  return undefined;
}

/** The PR this event is about, or undefined (an issue comment, a push, a payload without the fields). */
export function prEventOf(event: string, payload: Payload): PrEvent | undefined {
  return isGitlabEvent(event, payload) ? fromGitlab(payload) : fromGithub(event, payload);
}

/** One PR's key, the same for every event about it: `github:owner/name#12`. */
export function prKey(pr: Pick<PrEvent, 'forge' | 'repo' | 'number'>): string {
  return `${pr.forge}:${pr.repo}#${pr.number}`;
}

/** The hidden line that marks a route's living summary comment on one PR. */
export function summaryMarker(route: string, pr: Pick<PrEvent, 'repo' | 'number'>): string {
  return `<!-- iris:${route}:${pr.repo}#${pr.number} -->`;
}

/** Any of Iris's hidden markers (delivery or summary): a comment carrying one is Iris's own. */
export const IRIS_MARKER = /<!--\s*iris[:-]/;

export type EventLane = { readonly lane: string; readonly runAfter?: number };

/**
 * Where an accepted event queues on a PR route: its PR's lane (so the PR's events run one at a
 * time, in order), and for a push on a route that keeps a session per PR, the end of the
 * coalescing window (a newer push within it overtakes this one). Undefined on other routes and for
 * events about no PR.
 */
export function eventLane(
  route: { readonly name: string; readonly session: string; readonly commands: boolean; readonly coalesce_seconds: number },
  event: string,
  payload: Payload,
  receivedAt: number,
): EventLane | undefined {
  if (route.session !== 'per_pr' && !route.commands) return undefined;
  const pr = prEventOf(event, payload);
  if (pr === undefined) return undefined;
  const lane = `${route.name}|${prKey(pr)}`;
  const coalesce = route.session === 'per_pr' && pr.kind === 'change' && pr.change === 'push' && route.coalesce_seconds > 0;
  return coalesce ? { lane, runAfter: receivedAt + route.coalesce_seconds * 1000 } : { lane };
}
