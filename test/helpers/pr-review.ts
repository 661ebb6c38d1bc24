// Shared setup of the pull-request review e2e tests: a home with a PR route, the fake gh on PATH
// (its comment store and commit graph), GitHub and GitLab payloads, and readers of what the fakes
// saw. The gateway is the real `iris gateway run` subprocess.
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FakeUpstream } from '../fakes/upstream.js';
import { postEvent, send, startGatewayProcess, type GatewayProcess, type HttpAnswer } from './gateway.js';
import { REPO_ROOT, runIris } from './iris.js';

export const SECRET = 'pr-secret-0123456789abcdef';
export const REPO = 'octo/hello';

export type PrHome = {
  readonly dir: string;
  readonly home: string;
  readonly ghRecord: string;
  readonly commitsFile: string;
};

export async function makePrHome(dir: string): Promise<PrHome> {
  const home = join(dir, 'home');
  const binDir = join(dir, 'bin');
  await mkdir(home, { mode: 0o700 });
  await mkdir(binDir);
  await symlink(join(REPO_ROOT, 'test', 'fakes', 'fake-gh.mjs'), join(binDir, 'gh'));
  // A review reads the PR's files first (FAKE_GH_PULLS): PR #42 changes one line, unless a test writes its own.
  const pull = { title: 'Fix the parser', head: { ref: 'fix', sha: 'a'.repeat(40) }, base: { ref: 'main', sha: '0'.repeat(40) }, files: [{ filename: 'src/parse.ts', status: 'modified', patch: '@@ -1 +1 @@\n-old\n+new' }] };
  await writeFile(join(dir, 'pulls.json'), JSON.stringify({ pulls: { [`${REPO}#42`]: pull }, contents: { [REPO]: { main: {} } } }));
  return { dir, home, ghRecord: join(dir, 'gh.jsonl'), commitsFile: join(dir, 'commits.json') };
}

/** A review's answer as the model gives it (DECISIONS § "PR review findings"): a summary, no findings. */
export function reviewAnswer(summary: string, findings: readonly object[] = []) {
  return { kind: 'text' as const, deltas: [JSON.stringify({ summary, findings })] };
}

/** The summary comment's text for a review with no findings. */
export const noFindingsSummary = (summary: string) => `${summary}\n\n**Findings**: 0 critical, 0 major, 0 minor, 0 nit`;

/**
 * config.yaml with one route `pr` (the given lines, indented under it) and a title model of its
 * own; `extra` is top-level YAML, `listener` lines go under platforms.webhook.extra.
 */
export async function configurePr(pr: PrHome, routeLines: string, extra = '', listener: readonly string[] = []): Promise<void> {
  const route = routeLines
    .split('\n')
    .filter(Boolean)
    .map((line) => `          ${line}`)
    .join('\n');
  await writeFile(
    join(pr.home, 'config.yaml'),
    `model:\n  provider: openai\n  default: main-m\nauxiliary:\n  title_generation:\n    provider: openai\n    model: title-m\n${extra}platforms:\n  webhook:\n    enabled: true\n    extra:\n      host: 127.0.0.1\n      port: 0\n${listener.map((line) => `      ${line}\n`).join('')}      routes:\n        pr:\n          secret: ${SECRET}\n${route}\n`,
    { mode: 0o600 },
  );
}

/** A line of history for the fake gh's compare (`sha → parent`). */
export async function writeCommits(pr: PrHome, history: readonly string[]): Promise<void> {
  const graph = Object.fromEntries(history.map((sha, i) => [sha, i === 0 ? null : history[i - 1]!]));
  await writeFile(pr.commitsFile, JSON.stringify(graph));
}

export async function startPrGateway(pr: PrHome, fake: FakeUpstream, env: Record<string, string> = {}): Promise<GatewayProcess> {
  return startGatewayProcess(pr.home, {
    OPENAI_API_KEY: 'test-key-0123456789',
    OPENAI_BASE_URL: `${fake.url}/v1`,
    PATH: `${join(pr.dir, 'bin')}:${process.env.PATH ?? ''}`,
    FAKE_GH_RECORD: pr.ghRecord,
    FAKE_GH_COMMITS: pr.commitsFile,
    FAKE_GH_PULLS: join(pr.dir, 'pulls.json'),
    ...env,
  });
}

export const sha = (c: string) => c.repeat(40);

export function pullRequest(action: string, head: string, number = 42, extra: Record<string, unknown> = {}) {
  return {
    action,
    number,
    pull_request: { number, title: 'Fix the parser', user: { login: 'mona' }, head: { ref: 'fix', sha: head }, base: { ref: 'main' } },
    repository: { full_name: REPO },
    ...extra,
  };
}

export function issueComment(body: string, login: string, association: string, number = 42, id = 900) {
  return {
    action: 'created',
    issue: { number, title: 'Fix the parser', pull_request: { url: `https://api.github.com/repos/${REPO}/pulls/${number}` } },
    comment: { id, body, user: { login }, author_association: association },
    repository: { full_name: REPO },
  };
}

export function postGithub(gateway: GatewayProcess, event: string, payload: unknown, delivery?: string): Promise<HttpAnswer> {
  return postEvent(gateway.url, 'pr', payload, { secret: SECRET, event, ...(delivery ? { delivery } : {}) });
}

export function postGitlab(gateway: GatewayProcess, event: string, payload: unknown, delivery: string): Promise<HttpAnswer> {
  return send(gateway.url, {
    path: '/webhooks/pr',
    headers: { 'content-type': 'application/json', 'x-gitlab-event': event, 'x-gitlab-token': SECRET, 'x-gitlab-event-uuid': delivery },
    body: JSON.stringify(payload),
  });
}

export type DeliveryRow = { id: number; state: string; reason: string | null; session: string | null; delivery_id: string; event: string };

export async function deliveries(pr: PrHome): Promise<DeliveryRow[]> {
  const result = await runIris(['webhook', 'deliveries', '--json', '--limit', '1000'], { home: pr.home });
  if (result.code !== 0) throw new Error(`iris webhook deliveries failed: ${result.stderr}`);
  return (JSON.parse(result.stdout) as DeliveryRow[]).sort((a, b) => a.id - b.id);
}

/** Every event has ended (delivered, skipped or failed), and there are `count` of them. */
export const allEnded = (pr: PrHome, count: number) => async () => {
  const rows = await deliveries(pr);
  return rows.length === count && rows.every((row) => ['delivered', 'skipped', 'failed'].includes(row.state)) ? rows : undefined;
};

export type GhCall = { argv: string[]; body: string | null };

export async function ghCalls(pr: PrHome): Promise<GhCall[]> {
  const text = await readFile(pr.ghRecord, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as GhCall);
}

/** The comments the fake GitHub holds now (edits applied, deletions gone). */
export async function prComments(pr: PrHome): Promise<Array<{ id: number; repo: string; number: number; body: string }>> {
  const text = await readFile(`${pr.ghRecord}.comments.jsonl`, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { id: number; repo: string; number: number; body: string });
}

type ChatBody = { model: string; messages: Array<{ role: string; content: unknown }> };

/** The main model's requests (title generation has a model of its own in these homes). */
export function mainRequests(fake: FakeUpstream): ChatBody[] {
  return fake.requests.map((r) => r.body as ChatBody).filter((body) => body.model === 'main-m');
}

export function lastUserText(body: ChatBody): string {
  const user = body.messages.filter((m) => m.role === 'user').at(-1);
  return typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content);
}
