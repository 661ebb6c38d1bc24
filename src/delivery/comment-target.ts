// Where a forge_comment answer goes, decided from the route and the stored event. Pure.
//
// A PR route (session per PR, or comment commands) answers on the PR the event is about, read from
// the payload by kind (`issue.number` of a comment, `merge_request.iid` of a GitLab note);
// `deliver_extra` is the fallback for events about no PR. A GitLab event goes to GitLab's API. A
// plain GitHub route in the default mode keeps the `gh pr comment` delivery (forge-comment.ts).
import { isForgeRepo, validateForgeTarget, MAX_PR_NUMBER } from './forge-comment.js';
import type { PrRef } from './pr-forge.js';
import { isGitlabEvent, prEventOf, type Forge } from '../webhook/pr-event.js';
import { isPrRoute, type RouteSnapshot } from '../webhook/routes.js';
import { renderDeliverExtra } from '../webhook/template.js';

export type CommentTarget =
  | { readonly ok: true; readonly via: 'gh_pr_comment'; readonly pr: PrRef }
  | {
      readonly ok: true;
      readonly via: 'client';
      readonly forge: Forge;
      readonly pr: PrRef;
      /** One living comment per route and PR, edited by each review. */
      readonly update: boolean;
      /** The head the event is about: recorded as reviewed once its review is delivered. */
      readonly headSha?: string;
    }
  | { readonly ok: false; readonly error: string };

type Payload = Readonly<Record<string, unknown>>;

const GITLAB_SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,254}$/;

/** GitLab's path_with_namespace (group/subgroup/…/project) and a merge request iid. */
export function validateGitlabTarget(extra: Readonly<Record<string, string>>): { ok: true; pr: PrRef } | { ok: false; error: string } {
  const repo = extra.repo?.trim() ?? '';
  const iid = extra.pr_number?.trim() ?? '';
  if (!repo) return { ok: false, error: 'deliver_extra.repo is required for forge_comment (the project path, for example "{project.path_with_namespace}")' };
  if (!iid) return { ok: false, error: 'deliver_extra.pr_number is required for forge_comment (for example "{object_attributes.iid}")' };
  const segments = repo.split('/');
  if (segments.length < 2 || repo.length > 1024 || !segments.every((part) => GITLAB_SEGMENT.test(part) && !part.endsWith('.git'))) {
    return { ok: false, error: `deliver_extra.repo must be a GitLab project path (group/project), got ${JSON.stringify(repo.slice(0, 120))}` };
  }
  const number = /^[1-9][0-9]{0,9}$/.test(iid) ? Number(iid) : NaN;
  if (!(number <= MAX_PR_NUMBER)) return { ok: false, error: `deliver_extra.pr_number must be a positive integer, got ${JSON.stringify(iid.slice(0, 120))}` };
  return { ok: true, pr: { repo, number } };
}

/**
 * What is wrong with the repository a payload names, or undefined. Signed by the code host, but
 * checked all the same: it goes into API paths and gh's arguments.
 */
export function prRepoProblem(pr: { readonly forge: Forge; readonly repo: string; readonly number: number }): string | undefined {
  if (pr.forge === 'gitlab') {
    const checked = validateGitlabTarget({ repo: pr.repo, pr_number: String(pr.number) });
    return checked.ok ? undefined : checked.error;
  }
  return isForgeRepo(pr.repo) ? undefined : `the event's repository must be owner/name, got ${JSON.stringify(pr.repo.slice(0, 120))}`;
}

export function commentTarget(snapshot: RouteSnapshot, event: string, payload: Payload): CommentTarget {
  const update = snapshot.deliver_extra.mode === 'update';
  if (isPrRoute(snapshot)) {
    const pr = prEventOf(event, payload);
    if (pr) {
      const problem = prRepoProblem(pr);
      if (problem !== undefined) return { ok: false, error: problem };
      const target = { ok: true, via: 'client', forge: pr.forge, pr: { repo: pr.repo, number: pr.number }, update } as const;
      return pr.headSha === undefined ? target : { ...target, headSha: pr.headSha };
    }
  }
  const extra = renderDeliverExtra(snapshot.deliver_extra, payload);
  if (isGitlabEvent(event, payload)) {
    const checked = validateGitlabTarget(extra);
    return checked.ok ? { ok: true, via: 'client', forge: 'gitlab', pr: checked.pr, update } : checked;
  }
  const checked = validateForgeTarget(extra);
  if (!checked.ok) return checked;
  const pr = { repo: checked.repo, number: checked.prNumber };
  return update ? { ok: true, via: 'client', forge: 'github', pr, update } : { ok: true, via: 'gh_pr_comment', pr };
}
