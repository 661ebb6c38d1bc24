import { describe, expect, it } from 'vitest';
import { checkGitlab } from './gitlab.js';
import { takesGithubEvents, takesGitlabEvents } from '../../webhook/pr-event.js';

describe('which code host a route serves', () => {
  it('reads it from the events: GitLab header names end in " Hook"; an empty list takes every event', () => {
    expect(takesGitlabEvents(['Merge Request Hook', 'Note Hook'])).toBe(true);
    expect(takesGithubEvents(['Merge Request Hook', 'Note Hook'])).toBe(false);
    expect(takesGitlabEvents(['pull_request', 'issue_comment'])).toBe(false);
    expect(takesGithubEvents(['pull_request'])).toBe(true);
    expect([takesGithubEvents(['pull_request', 'Note Hook']), takesGitlabEvents(['pull_request', 'Note Hook'])]).toEqual([true, true]);
    expect([takesGithubEvents([]), takesGitlabEvents([])]).toEqual([true, false]);
  });
});

describe('checkGitlab', () => {
  it('fails without GITLAB_TOKEN, naming the routes and the fix; passes with it, never showing it', () => {
    expect(checkGitlab({}, 'https://gitlab.com/api/v4', ['mr', 'notes'])).toEqual({
      id: 'gitlab',
      name: 'GitLab token',
      status: 'fail',
      finding: 'GITLAB_TOKEN is not set; routes mr, notes post GitLab notes through https://gitlab.com/api/v4',
      fix: 'create a GitLab access token with the api scope for the bot account, then: iris config set GITLAB_TOKEN <token>',
    });
    expect(checkGitlab({ GITLAB_TOKEN: '  ' }, 'https://x/api/v4', ['mr']).status).toBe('fail');
    const passed = checkGitlab({ GITLAB_TOKEN: 'glpat-secret-value-0123456789' }, 'https://gitlab.example/api/v4', ['mr']);
    expect(passed).toEqual({ id: 'gitlab', name: 'GitLab token', status: 'ok', finding: 'GITLAB_TOKEN set; route mr posts GitLab notes through https://gitlab.example/api/v4' });
  });
});
