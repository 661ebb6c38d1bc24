import { describe, expect, it } from 'vitest';
import { fakePrForges } from '../../test/helpers/pr-fakes.js';
import type { ForgeResult, PrRef } from '../delivery/pr-forge.js';
import type { PrDiff, PrDiffReader } from '../review/diff-reader.js';
import type { PrPlan } from './pr-plan.js';
import { createPrForges, type PrForges } from './pr-forges.js';
import { prepareReview } from './review-inputs.js';

const DIFF: PrDiff = {
  files: [
    { path: 'src/a.ts', status: 'modified', patch: '@@ -1 +1 @@\n-a\n+b' },
    { path: 'dist/a.js', status: 'modified', patch: '@@ -1 +1 @@\n-a\n+b' },
  ],
  baseSha: 'b'.repeat(40),
  headSha: 'c'.repeat(40),
  startSha: 'b'.repeat(40),
  baseRef: 'main',
  facts: { draft: true, authorIsBot: false, title: 'Fix' },
};

/** A reader with the base branch's files in a map; it records what it was asked. */
function reader(files: Record<string, string>, diff: ForgeResult<PrDiff> = { ok: true, value: DIFF }) {
  const asked: Array<{ pr: PrRef; path?: string; ref?: string }> = [];
  const read: PrDiffReader = {
    prFiles: async (pr) => (asked.push({ pr }), diff),
    readFile: async (pr, path, ref) => (asked.push({ pr, path, ref }), { ok: true, value: ref === 'main' ? (files[path] ?? null) : 'ignore: ["**"]\n' }),
  };
  return { read, asked };
}

const forgesWith = (read: PrDiffReader): PrForges => ({ ...fakePrForges({}).forges, reads: () => ({ ok: true, reader: read }) });

function plan(route: boolean, deliverAs: 'summary' | 'reply' = 'summary'): PrPlan {
  return {
    kind: 'run',
    pr: { forge: 'github', repo: 'octo/hello', number: 42, kind: 'change', change: 'opened', action: 'opened' },
    prKey: 'github:octo/hello#42',
    sessionPerPr: true,
    sessionId: null,
    prompt: route ? { route: true } : { route: false, text: '@mona asked for a full review' },
    deliverAs,
  };
}

const signal = new AbortController().signal;

describe('prepareReview', () => {
  it('reads the PR and the base branch rules: the files after ignore, and the two tools over them', async () => {
    const { read, asked } = reader({ '.iris/review.yaml': 'ignore: [dist/]\nskip:\n  drafts: false\nmax_diff_tokens: 2000\n' });
    const prepared = await prepareReview(forgesWith(read), plan(true), {}, signal);
    if (prepared.kind !== 'ready') throw new Error(`not ready: ${prepared.kind}`);
    expect(prepared.inputs.files.map((f) => f.path)).toEqual(['src/a.ts']);
    expect(prepared.inputs.rules.maxDiffTokens).toBe(2000);
    expect(prepared.tools.map((t) => t.definition.name)).toEqual(['pr_files', 'pr_file_diff']);
    expect(asked.filter((a) => a.path !== undefined).map((a) => [a.path, a.ref])).toEqual([
      ['.iris/review.yaml', 'main'],
      ['AGENTS.md', 'main'],
    ]);
  });

  it("takes the route's budget as the default", async () => {
    const { read } = reader({});
    const prepared = await prepareReview(forgesWith(read), plan(false), { review: { max_diff_tokens: 9000 } }, signal);
    expect(prepared.kind === 'ready' && prepared.inputs.rules.maxDiffTokens).toBe(9000);
  });

  it('skips an automatic review by the rules, never a /review', async () => {
    const { read } = reader({});
    expect(await prepareReview(forgesWith(read), plan(true), {}, signal)).toEqual({ kind: 'skip', reason: 'the pull request is a draft (.iris/review.yaml skip.drafts)' });
    expect((await prepareReview(forgesWith(read), plan(false), {}, signal)).kind).toBe('ready');
  });

  it('does nothing for a reply, a plain route, or forges that cannot read', async () => {
    const { read, asked } = reader({});
    expect(await prepareReview(forgesWith(read), plan(true, 'reply'), {}, signal)).toEqual({ kind: 'none' });
    expect(await prepareReview(forgesWith(read), { kind: 'plain' }, {}, signal)).toEqual({ kind: 'none' });
    expect(await prepareReview(fakePrForges({}).forges, plan(true), {}, signal)).toEqual({ kind: 'none' });
    expect(asked).toEqual([]);
  });

  it('fails when the code host cannot be read', async () => {
    const { read } = reader({}, { ok: false, code: 'unauthenticated', retryable: false, message: 'gh is not signed in' });
    expect(await prepareReview(forgesWith(read), plan(true), {}, signal)).toEqual({ kind: 'failed', reason: 'could not read the pull request from the code host: gh is not signed in' });
    const none: PrForges = { ...fakePrForges({}).forges, reads: () => ({ ok: false, error: 'GITLAB_TOKEN is not set' }) };
    expect(await prepareReview(none, plan(true), {}, signal)).toEqual({ kind: 'failed', reason: 'GITLAB_TOKEN is not set' });
  });
});

describe('createPrForges: reads', () => {
  it('reads GitHub through gh, and GitLab only with GITLAB_TOKEN', () => {
    const withToken = createPrForges({ env: { GITLAB_TOKEN: 'glpat-0123456789abcdef' }, gitlabApiBase: 'http://127.0.0.1:9/api/v4' });
    expect(withToken.reads?.('github').ok).toBe(true);
    expect(withToken.reads?.('gitlab').ok).toBe(true);
    const without = createPrForges({ env: {}, gitlabApiBase: 'http://127.0.0.1:9/api/v4' });
    expect(without.reads?.('gitlab')).toEqual({ ok: false, error: 'GITLAB_TOKEN is not set: put a GitLab access token with the api scope in the gateway environment (.env)' });
  });
});
