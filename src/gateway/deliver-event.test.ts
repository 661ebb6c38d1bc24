// Delivering a stored answer: the target check before a run, and the forge_comment path through
// the fake gh (test/fakes/fake-gh.mjs) with a recording inbox, including a restart that finds an
// event `delivering` (the marker on the PR decides whether it is posted again).
import { mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import type { WebhookEventRecord, WebhookInbox } from '../store/webhook-types.js';
import type { ListenerLog } from '../webhook/listener.js';
import { deliverEvent, deliveryTargetProblem } from './deliver-event.js';
import { createPrForges, type PrForges } from './pr-forges.js';
import type { PrThreads } from '../store/pr-thread-types.js';

const FAKE_GH = fileURLToPath(new URL('../../test/fakes/fake-gh.mjs', import.meta.url));
const FORGE = { name: 'pr', source: 'config' as const, skills: [], deliver: 'forge_comment' as const, deliver_extra: { repo: '{repository.full_name}', pr_number: '{number}' } };
const PAYLOAD = { number: 42, repository: { full_name: 'octo/hello' } };
const NO_PLATFORMS = new Map();
const TELEGRAM_HOME = new Map([['telegram', { homeChannel: '-100200' }]] as const);
// The plain GitHub route delivers with `gh pr comment`: no code-host client is asked, and the bot's
// login is unknown (a marker then counts on any comment, as before logins were asked).
const NO_FORGES = {
  client: () => ({ ok: false, error: 'no client in this test' }),
  botLogin: async () => ({ ok: false, code: 'unauthenticated', retryable: false, message: 'no login in this test' }),
  knownLogin: () => undefined,
  gitlabMayCommand: () => Promise.reject(new Error('unused')),
} as const satisfies PrForges;
const NO_THREADS = { get: () => Promise.reject(new Error('unused')), update: () => Promise.reject(new Error('unused')), prune: () => Promise.reject(new Error('unused')) } satisfies PrThreads;
const noPlatformDelivery = { targets: NO_PLATFORMS, store: {} as never, adapters: new Map(), wake: () => {} };

describe('deliveryTargetProblem', () => {
  it('is nothing for log and for a target that renders valid', () => {
    expect(deliveryTargetProblem({ ...FORGE, deliver: 'log' }, 'pull_request', {}, NO_PLATFORMS, NO_FORGES)).toBeUndefined();
    expect(deliveryTargetProblem(FORGE, 'pull_request', PAYLOAD, NO_PLATFORMS, NO_FORGES)).toBeUndefined();
  });

  it('names what is wrong with a rendered target, and a platform that is not there', () => {
    expect(deliveryTargetProblem(FORGE, 'pull_request', { ...PAYLOAD, number: -3 }, NO_PLATFORMS, NO_FORGES)).toBe('deliver_extra.pr_number must be a positive integer, got "-3"');
    // A placeholder the payload cannot fill stays as written, which is no owner/name.
    expect(deliveryTargetProblem(FORGE, 'pull_request', { number: 1 }, NO_PLATFORMS, NO_FORGES)).toBe('deliver_extra.repo must be owner/name, got "{repository.full_name}"');
    expect(deliveryTargetProblem({ ...FORGE, deliver: 'slack' }, 'pull_request', PAYLOAD, NO_PLATFORMS, NO_FORGES)).toBe('deliver slack: platform not enabled');
  });

  it('a platform target: the rendered chat_id, else the home channel', () => {
    const chat = { ...FORGE, deliver: 'telegram' as const, deliver_extra: { chat_id: '{chat}' } };
    expect(deliveryTargetProblem(chat, 'pull_request', { chat: 55 }, TELEGRAM_HOME, NO_FORGES)).toBeUndefined();
    expect(deliveryTargetProblem({ ...chat, deliver_extra: {} }, 'pull_request', {}, TELEGRAM_HOME, NO_FORGES)).toBeUndefined();
    expect(deliveryTargetProblem({ ...chat, deliver_extra: {} }, 'pull_request', {}, new Map([['telegram', { homeChannel: '' }]] as const), NO_FORGES)).toBe('deliver telegram: no chat_id and no home_channel');
    expect(deliveryTargetProblem(chat, 'pull_request', {}, TELEGRAM_HOME, NO_FORGES)).toBe('deliver telegram: chat_id "{chat}" names a field the payload does not have');
  });
});

type Call = [string, ...unknown[]];

function recordingInbox(calls: Call[]): WebhookInbox {
  const note =
    (name: string) =>
    (...args: unknown[]) => {
      calls.push([name, ...args]);
      return Promise.resolve();
    };
  return { markDelivering: note('delivering'), setDeliveryPid: note('pid'), markDelivered: note('delivered'), markDeliveryFailed: note('failed') } as unknown as WebhookInbox;
}

const quietLog: ListenerLog = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

const record = (over: Partial<WebhookEventRecord> = {}): WebhookEventRecord => ({
  id: 7,
  route: 'pr',
  deliveryId: 'd-7',
  event: 'pull_request',
  payload: JSON.stringify(PAYLOAD),
  routeSnapshot: JSON.stringify(FORGE),
  state: 'done',
  runAttempts: 1,
  deliveryAttempts: 0,
  sessionId: 's-1',
  deliveryPid: null,
  output: 'Looks good.',
  error: null,
  receivedAt: 0,
  lane: null,
  runAfter: null,
  skipReason: null,
  deliverAs: null,
  updatedAt: 0,
  ...over,
});

describe.skipIf(process.platform === 'win32')('deliverEvent through the fake gh', () => {
  let dir: string;
  let recordPath: string;
  let env: Record<string, string>;
  const noWait = { backoffMs: [1], sleep: () => Promise.resolve() };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'iris-deliver-'));
    await mkdir(join(dir, 'bin'));
    await symlink(FAKE_GH, join(dir, 'bin', 'gh'));
    recordPath = join(dir, 'gh.jsonl');
    env = { PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`, HOME: dir, FAKE_GH_RECORD: recordPath };
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const posted = async () => (await readFile(`${recordPath}.comments.jsonl`, 'utf8').catch(() => '')).split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { body: string }).body);
  const argvs = async () => (await readFile(recordPath, 'utf8').catch(() => '')).split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { argv: string[] }).argv);

  it('records delivering, then posts the answer with its marker, then delivered', async () => {
    const calls: Call[] = [];
    await deliverEvent({ env, inbox: recordingInbox(calls), log: quietLog, retry: noWait, platforms: noPlatformDelivery, forges: NO_FORGES, threads: NO_THREADS }, record(), new AbortController().signal);
    expect(calls.map((c) => c[0])).toEqual(['delivering', 'pid', 'delivered']);
    expect(calls[2]).toEqual(['delivered', 7, 1]);
    expect(await posted()).toEqual(['Looks good.\n\n<!-- iris-delivery:7 -->']);
  });

  it('a delivering event whose marker is on the PR already is marked delivered without posting', async () => {
    const calls: Call[] = [];
    await deliverEvent({ env, inbox: recordingInbox(calls), log: quietLog, retry: noWait, platforms: noPlatformDelivery, forges: NO_FORGES, threads: NO_THREADS }, record(), new AbortController().signal);
    calls.length = 0;
    await deliverEvent({ env, inbox: recordingInbox(calls), log: quietLog, retry: noWait, platforms: noPlatformDelivery, forges: NO_FORGES, threads: NO_THREADS }, record({ state: 'delivering', deliveryAttempts: 1, deliveryPid: 999_999_999 }), new AbortController().signal);
    expect(calls).toEqual([['delivered', 7, 1]]);
    expect(await posted()).toHaveLength(1);
    expect((await argvs()).map((argv) => argv[0])).toEqual(['pr', 'api']);
  });

  it('a delivering event without the marker on the PR is posted', async () => {
    const calls: Call[] = [];
    await deliverEvent({ env, inbox: recordingInbox(calls), log: quietLog, retry: noWait, platforms: noPlatformDelivery, forges: NO_FORGES, threads: NO_THREADS }, record({ state: 'delivering' }), new AbortController().signal);
    expect(calls.map((c) => c[0])).toEqual(['delivering', 'pid', 'delivered']);
    expect(await posted()).toEqual(['Looks good.\n\n<!-- iris-delivery:7 -->']);
  });

  it('a delivering event whose PR cannot be checked fails with the reason, and is not posted blind', async () => {
    const calls: Call[] = [];
    await deliverEvent({ env: { ...env, FAKE_GH_MODE: 'unauthenticated' }, inbox: recordingInbox(calls), log: quietLog, retry: noWait, platforms: noPlatformDelivery, forges: NO_FORGES, threads: NO_THREADS }, record({ state: 'delivering', deliveryAttempts: 1 }), new AbortController().signal);
    expect(calls).toHaveLength(1);
    expect(calls[0]![0]).toBe('failed');
    expect(String(calls[0]![3])).toMatch(/^could not check whether the answer was posted before the restart, so it was not posted again: gh is not signed in/);
    expect(await posted()).toEqual([]);
  });

  it('log delivery writes the answer to the log; a broken snapshot or payload fails', async () => {
    const calls: Call[] = [];
    const lines: string[] = [];
    const log = { ...quietLog, info: (_: object, message: string) => void lines.push(message) };
    await deliverEvent({ env, inbox: recordingInbox(calls), log, platforms: noPlatformDelivery, forges: NO_FORGES, threads: NO_THREADS }, record({ routeSnapshot: JSON.stringify({ ...FORGE, deliver: 'log' }) }), new AbortController().signal);
    await deliverEvent({ env, inbox: recordingInbox(calls), log: quietLog, platforms: noPlatformDelivery, forges: NO_FORGES, threads: NO_THREADS }, record({ routeSnapshot: '{' }), new AbortController().signal);
    await deliverEvent({ env, inbox: recordingInbox(calls), log: quietLog, platforms: noPlatformDelivery, forges: NO_FORGES, threads: NO_THREADS }, record({ payload: 'nope' }), new AbortController().signal);
    await deliverEvent({ env, inbox: recordingInbox(calls), log: quietLog, platforms: noPlatformDelivery, forges: NO_FORGES, threads: NO_THREADS }, record({ payload: JSON.stringify({ number: 0, repository: { full_name: 'octo/hello' } }) }), new AbortController().signal);
    expect(lines).toEqual(['webhook answer']);
    expect(calls).toEqual([
      ['delivered', 7, 1],
      ['failed', 7, 0, 'the stored route is not JSON'],
      ['failed', 7, 0, 'the stored payload is not JSON'],
      ['failed', 7, 0, 'deliver_extra.pr_number must be a positive integer, got "0"'],
    ]);
  });

  it('a log delivery is written out (flushed) before the event is marked delivered', async () => {
    const order: string[] = [];
    const inbox = { ...recordingInbox([]), markDelivered: async () => void order.push('marked delivered') } as WebhookInbox;
    const log = { ...quietLog, info: (_: object, message: string) => void order.push(message) };
    const flushLog = async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push('flushed');
    };
    await deliverEvent({ env, inbox, log, platforms: noPlatformDelivery, forges: NO_FORGES, threads: NO_THREADS, flushLog }, record({ routeSnapshot: JSON.stringify({ ...FORGE, deliver: 'log' }) }), new AbortController().signal);
    expect(order).toEqual(['webhook answer', 'flushed', 'marked delivered']);
  });

  it("with the bot's login known, a stranger's comment carrying the delivery marker does not count: the answer is posted", async () => {
    const stranger = spawn(FAKE_GH, ['pr', 'comment', '42', '--repo', 'octo/hello', '--body', 'ha <!-- iris-delivery:7 -->'], { env: { ...process.env, ...env, FAKE_GH_LOGIN: 'mallory' }, stdio: 'ignore' });
    await new Promise((resolve) => stranger.once('exit', resolve));
    const calls: Call[] = [];
    const forges = createPrForges({ env, gitlabApiBase: 'http://127.0.0.1:9/api/v4' });
    await deliverEvent({ env, inbox: recordingInbox(calls), log: quietLog, retry: noWait, platforms: noPlatformDelivery, forges, threads: NO_THREADS }, record({ state: 'delivering' }), new AbortController().signal);
    expect(calls.map((c) => c[0])).toEqual(['delivering', 'pid', 'delivered']);
    expect(await posted()).toEqual(['ha <!-- iris-delivery:7 -->', 'Looks good.\n\n<!-- iris-delivery:7 -->']);
    expect((await argvs()).slice(1).map((argv) => argv.slice(0, 2).join(' '))).toEqual(['api user', 'api --paginate', 'pr comment']);
  });

  it('a PR route: a gh api write left hanging by the killed gateway is stopped before the marker check, then the answer is posted once', async () => {
    // The orphan: a POST of this event's answer that had not reached GitHub when the gateway died.
    const orphan = spawn(FAKE_GH, ['api', '--method', 'POST', 'repos/octo/hello/issues/42/comments', '--input', '-'], {
      env: { ...process.env, ...env, FAKE_GH_MODE: 'hang' },
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    orphan.stdin.end(JSON.stringify({ body: 'Looks good.' }));
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    const pid = orphan.pid!;
    // Wait until it has read its body and hangs (it records the call first).
    for (let i = 0; i < 100 && (await argvs()).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(alive(pid)).toBe(true);
    const calls: Call[] = [];
    const prRoute = JSON.stringify({ name: 'pr', source: 'config', skills: [], deliver: 'forge_comment', deliver_extra: {}, commands: true });
    const comment = { action: 'created', issue: { number: 42, pull_request: {} }, comment: { id: 5, body: '/ask why?', user: { login: 'octocat' }, author_association: 'MEMBER' }, repository: { full_name: 'octo/hello' } };
    const forges = createPrForges({ env, gitlabApiBase: 'http://127.0.0.1:9/api/v4' });
    onTestFinished(() => {
      // Only when the test fails is it still there (10 minutes of hang): not left behind.
      if (alive(pid)) process.kill(-pid, 'SIGKILL');
    });
    await deliverEvent(
      { env, inbox: recordingInbox(calls), log: quietLog, retry: noWait, platforms: noPlatformDelivery, forges, threads: NO_THREADS },
      record({ event: 'issue_comment', payload: JSON.stringify(comment), routeSnapshot: prRoute, state: 'delivering', deliveryPid: pid, deliverAs: 'reply' }),
      new AbortController().signal,
    );
    expect(alive(pid)).toBe(false);
    expect(calls.map((c) => c[0])).toEqual(['delivering', 'pid', 'delivered']);
    expect(await posted()).toEqual(['Looks good.\n\n<!-- iris-delivery:7 -->']);
  });

});

describe('deliverEvent to a chat platform', () => {
  it('enqueues the answer split at the platform limit under the event id, wakes the outbox, then marks it delivered', async () => {
    const calls: Call[] = [];
    const enqueued: unknown[] = [];
    let woken = 0;
    const platforms = { targets: TELEGRAM_HOME, store: { enqueue: (m: unknown[]) => Promise.resolve(enqueued.push(...m)) } as never, adapters: new Map(), wake: () => void woken++ };
    const snapshot = JSON.stringify({ ...FORGE, deliver: 'telegram', deliver_extra: { thread_id: '{topic}' } });
    const answer = `${'a'.repeat(4000)}\n\n${'b'.repeat(200)}`;
    await deliverEvent({ env: {}, inbox: recordingInbox(calls), log: quietLog, platforms, forges: NO_FORGES, threads: NO_THREADS }, record({ id: 9, output: answer, routeSnapshot: snapshot, payload: JSON.stringify({ topic: 3 }) }), new AbortController().signal);
    expect(enqueued).toEqual([
      { platform: 'telegram', chatId: '-100200', threadId: '3', text: 'a'.repeat(4000), origin: 'webhook:9', part: 0 },
      { platform: 'telegram', chatId: '-100200', threadId: '3', text: 'b'.repeat(200), origin: 'webhook:9', part: 1 },
    ]);
    expect(woken).toBe(1);
    expect(calls).toEqual([['delivered', 9, 1]]);
  });
});
