// The code-host clients of the PR-review features, one per forge, made once per gateway: GitHub
// through gh (its sign-in is gh's), GitLab through its REST API (GITLAB_TOKEN, `gitlab.api_base`).
// The bot's own login is asked once and kept, so its comments are known without a call per event;
// a failed ask is tried again at the next event (the hidden marker still stops loops meanwhile).
import type { Env } from '../config/home.js';
import { createGithubPrClient } from '../delivery/github-pr-client.js';
import { createGitlabPrClient, type GitlabPrClient } from '../delivery/gitlab-pr-client.js';
import { GITLAB_DEVELOPER_ACCESS, type CallOptions, type ForgeResult, type PrForgeClient, type PrRef } from '../delivery/pr-forge.js';
import type { Forge } from '../webhook/pr-event.js';
import { createGithubPrReads } from '../delivery/github-pr-reads.js';
import { createGitlabPrReads } from '../delivery/gitlab-pr-reads.js';
import type { PrDiffReader } from '../review/diff-reader.js';
import { createGithubPrReview } from '../delivery/github-pr-review.js';
import { createGitlabPrReview } from '../delivery/gitlab-pr-review.js';
import type { PrReviewPoster } from '../delivery/pr-review-poster.js';

export type PrForges = {
  /** The forge's client, or why there is none (GitLab without GITLAB_TOKEN). */
  client(forge: Forge): { readonly ok: true; readonly client: PrForgeClient } | { readonly ok: false; readonly error: string };
  /** The bot's login on that forge (asked once, then kept); a failure when the host could not say. */
  botLogin(forge: Forge, options?: CallOptions): Promise<ForgeResult<string>>;
  /** The bot's login if it was asked already (never asks). */
  knownLogin(forge: Forge): string | undefined;
  /** May this GitLab user command the bot (Developer access or more on the project)? */
  gitlabMayCommand(pr: PrRef, userId: number, options?: CallOptions): Promise<ForgeResult<boolean>>;
  /** What a review reads of the forge (files, diff, the base branch's rules); absent: reviews run without. */
  reads?(forge: Forge): { readonly ok: true; readonly reader: PrDiffReader } | { readonly ok: false; readonly error: string };
  /** How a review's findings are posted on the forge (inline comments, threads); absent: summary only. */
  reviews?(forge: Forge): { readonly ok: true; readonly poster: PrReviewPoster } | { readonly ok: false; readonly error: string };
};

const NO_GITLAB_TOKEN = 'GITLAB_TOKEN is not set: put a GitLab access token with the api scope in the gateway environment (.env)';

export type PrForgesOptions = {
  readonly env: Env;
  readonly gitlabApiBase: string;
  /** Tests put a short timeout here. */
  readonly timeoutMs?: number;
};

export function createPrForges(options: PrForgesOptions): PrForges {
  const timeout = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
  const github = createGithubPrClient({ env: options.env, ...timeout });
  const token = options.env.GITLAB_TOKEN?.trim() ?? '';
  const gitlab: GitlabPrClient | undefined = token === '' ? undefined : createGitlabPrClient({ apiBase: options.gitlabApiBase, token, ...timeout });
  const logins = new Map<Forge, string>();
  const githubReads = createGithubPrReads({ env: options.env, ...timeout });
  const gitlabReads = token === '' ? undefined : createGitlabPrReads({ apiBase: options.gitlabApiBase, token, ...timeout });
  const githubReview = createGithubPrReview({ env: options.env, ...timeout });
  const gitlabReview = token === '' ? undefined : createGitlabPrReview({ apiBase: options.gitlabApiBase, token, ...timeout });

  const client: PrForges['client'] = (forge) => {
    if (forge === 'github') return { ok: true, client: github };
    return gitlab ? { ok: true, client: gitlab } : { ok: false, error: NO_GITLAB_TOKEN };
  };

  return {
    client,
    async botLogin(forge, callOptions) {
      const known = logins.get(forge);
      if (known !== undefined) return { ok: true, value: known };
      const chosen = client(forge);
      if (!chosen.ok) return { ok: false, code: 'unauthenticated', retryable: false, message: chosen.error };
      const login = await chosen.client.whoAmI(callOptions);
      if (login.ok) logins.set(forge, login.value);
      return login;
    },
    knownLogin: (forge) => logins.get(forge),
    reads(forge) {
      if (forge === 'github') return { ok: true, reader: githubReads };
      return gitlabReads ? { ok: true, reader: gitlabReads } : { ok: false, error: NO_GITLAB_TOKEN };
    },
    reviews(forge) {
      if (forge === 'github') return { ok: true, poster: githubReview };
      return gitlabReview ? { ok: true, poster: gitlabReview } : { ok: false, error: NO_GITLAB_TOKEN };
    },
    async gitlabMayCommand(pr, userId, callOptions) {
      if (!gitlab) return { ok: false, code: 'unauthenticated', retryable: false, message: NO_GITLAB_TOKEN };
      const level = await gitlab.accessLevel(pr, userId, callOptions);
      return level.ok ? { ok: true, value: level.value !== null && level.value >= GITLAB_DEVELOPER_ACCESS } : level;
    },
  };
}
