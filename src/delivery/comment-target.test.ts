// Where a forge_comment answer goes: the PR of the event on a PR route, deliver_extra otherwise,
// GitLab's API for GitLab events, gh for a plain GitHub route in the default mode.
import { describe, expect, it } from 'vitest';
import type { RouteSnapshot } from '../webhook/routes.js';
import { commentTarget, validateGitlabTarget } from './comment-target.js';

const SHA = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821';

const snapshot = (overrides: Partial<RouteSnapshot> = {}): RouteSnapshot => ({
  name: 'reviews',
  source: 'config',
  skills: [],
  deliver: 'forge_comment',
  deliver_extra: {},
  ...overrides,
});

const ghPr = { action: 'synchronize', number: 12, pull_request: { number: 12, head: { sha: SHA } }, repository: { full_name: 'octo/widgets' } };
const ghComment = {
  action: 'created',
  issue: { number: 7, pull_request: { url: 'https://api.github.com/repos/octo/widgets/pulls/7' } },
  comment: { id: 1, body: '/review', user: { login: 'bob' } },
  repository: { full_name: 'octo/widgets' },
};
const glNote = {
  object_kind: 'note',
  user: { id: 42, username: 'carol' },
  project: { path_with_namespace: 'group/sub/project' },
  object_attributes: { id: 5, note: '/review', noteable_type: 'MergeRequest' },
  merge_request: { iid: 3, last_commit: { id: SHA } },
};

describe('commentTarget on a PR route', () => {
  it('per_pr: the PR of the event, its head, the update flag from deliver_extra.mode', () => {
    const route = snapshot({ session: 'per_pr', deliver_extra: { mode: 'update', repo: 'ignored/repo', pr_number: '99' } });
    expect(commentTarget(route, 'pull_request', ghPr)).toEqual({ ok: true, via: 'client', forge: 'github', pr: { repo: 'octo/widgets', number: 12 }, update: true, headSha: SHA });
  });

  it('commands: a comment on a PR, without a head, mode new', () => {
    const route = snapshot({ commands: true, deliver_extra: { mode: 'new' } });
    expect(commentTarget(route, 'issue_comment', ghComment)).toEqual({ ok: true, via: 'client', forge: 'github', pr: { repo: 'octo/widgets', number: 7 }, update: false });
  });

  it('a GitLab note goes to GitLab with the merge request head', () => {
    expect(commentTarget(snapshot({ session: 'per_pr' }), 'Note Hook', glNote)).toEqual({
      ok: true,
      via: 'client',
      forge: 'gitlab',
      pr: { repo: 'group/sub/project', number: 3 },
      update: false,
      headSha: SHA,
    });
  });

  it('falls back to deliver_extra for an event about no PR', () => {
    const route = snapshot({ session: 'per_pr', deliver_extra: { repo: '{repository.full_name}', pr_number: 5 } });
    const push = { ref: 'refs/heads/main', repository: { full_name: 'octo/widgets' } };
    expect(commentTarget(route, 'push', push)).toEqual({ ok: true, via: 'gh_pr_comment', pr: { repo: 'octo/widgets', number: 5 } });
  });

  it('an event about no PR and no deliver_extra is an error', () => {
    const comment = { ...ghComment, issue: { number: 7 } };
    expect(commentTarget(snapshot({ commands: true }), 'issue_comment', comment)).toEqual({ ok: false, error: 'deliver_extra.repo is required for forge_comment (owner/name)' });
  });
});

describe('commentTarget on a plain route', () => {
  const extra = { repo: '{repository.full_name}', pr_number: '{pull_request.number}' };

  it('GitHub in the default mode is delivered through gh pr comment', () => {
    expect(commentTarget(snapshot({ deliver_extra: extra }), 'pull_request', ghPr)).toEqual({ ok: true, via: 'gh_pr_comment', pr: { repo: 'octo/widgets', number: 12 } });
  });

  it('GitHub in update mode goes through the client, without a head', () => {
    expect(commentTarget(snapshot({ deliver_extra: { ...extra, mode: 'update' } }), 'pull_request', ghPr)).toEqual({
      ok: true,
      via: 'client',
      forge: 'github',
      pr: { repo: 'octo/widgets', number: 12 },
      update: true,
    });
  });

  it('GitHub with a bad target is an error', () => {
    expect(commentTarget(snapshot({ deliver_extra: { repo: 'not a repo', pr_number: '1' } }), 'pull_request', ghPr)).toEqual({
      ok: false,
      error: 'deliver_extra.repo must be owner/name, got "not a repo"',
    });
  });

  it('a GitLab event renders deliver_extra and goes to GitLab', () => {
    const route = snapshot({ deliver_extra: { repo: '{project.path_with_namespace}', pr_number: '{merge_request.iid}' } });
    expect(commentTarget(route, 'Note Hook', glNote)).toEqual({ ok: true, via: 'client', forge: 'gitlab', pr: { repo: 'group/sub/project', number: 3 }, update: false });
  });

  it('a GitLab event with a bad project path is an error', () => {
    const route = snapshot({ deliver_extra: { repo: 'project', pr_number: '3' } });
    expect(commentTarget(route, 'Note Hook', glNote)).toEqual({ ok: false, error: 'deliver_extra.repo must be a GitLab project path (group/project), got "project"' });
  });
});

describe('validateGitlabTarget', () => {
  it.each([
    ['group/project', 1],
    ['group/sub/sub2/project', 42],
    ['my_group/my.project-x', 2147483647],
  ])('accepts %s !%d', (repo, number) => {
    expect(validateGitlabTarget({ repo: ` ${repo} `, pr_number: ` ${number} ` })).toEqual({ ok: true, pr: { repo, number } });
  });

  it.each(['project', 'group/project.git', 'group/../project', 'group/..', 'group//project', '/group/project', 'group/project/', '.hidden/project', 'group/pro ject', 'group/-x'])(
    'refuses the project path %j',
    (repo) => {
      expect(validateGitlabTarget({ repo, pr_number: '1' })).toEqual({ ok: false, error: `deliver_extra.repo must be a GitLab project path (group/project), got ${JSON.stringify(repo)}` });
    },
  );

  it('requires a repo and a pr_number', () => {
    expect(validateGitlabTarget({ pr_number: '1' })).toEqual({
      ok: false,
      error: 'deliver_extra.repo is required for forge_comment (the project path, for example "{project.path_with_namespace}")',
    });
    expect(validateGitlabTarget({ repo: '  ', pr_number: '1' })).toMatchObject({ ok: false, error: expect.stringContaining('deliver_extra.repo is required') as unknown });
    expect(validateGitlabTarget({ repo: 'a/b', pr_number: '' })).toEqual({
      ok: false,
      error: 'deliver_extra.pr_number is required for forge_comment (for example "{object_attributes.iid}")',
    });
  });

  it.each(['0', '-1', '1.5', '12a', '007', '2147483648', '99999999999'])('refuses the iid %j', (iid) => {
    expect(validateGitlabTarget({ repo: 'a/b', pr_number: iid })).toEqual({ ok: false, error: `deliver_extra.pr_number must be a positive integer, got ${JSON.stringify(iid)}` });
  });
});
