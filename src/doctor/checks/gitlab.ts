// GitLab, when a route delivers forge_comment for GitLab's events: the token the REST API needs.
// Which code host a route serves is read from its events (webhook/pr-event.ts). Pure.
import type { Env } from '../../config/home.js';
import { fail, ok, plural, type CheckResult } from '../types.js';

const ID = 'gitlab';

export function checkGitlab(env: Env, apiBase: string, routes: readonly string[]): CheckResult {
  const why = `${plural(routes.length, 'route')} ${routes.join(', ')} ${plural(routes.length, 'posts', 'post')} GitLab notes through ${apiBase}`;
  if ((env.GITLAB_TOKEN ?? '').trim() === '') return fail(ID, 'GitLab token', `GITLAB_TOKEN is not set; ${why}`, 'create a GitLab access token with the api scope for the bot account, then: iris config set GITLAB_TOKEN <token>');
  return ok(ID, 'GitLab token', `GITLAB_TOKEN set; ${why}`);
}
