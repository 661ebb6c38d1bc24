// In-memory fakes of the PR-review seams: the PR threads store, a code-host client that keeps its
// comments in a list (and fails on request), and the per-forge clients of the planner.
import type { CommitRelation, FindOptions, ForgeFailure, ForgeResult, PostedComment, PrForgeClient, PrRef } from '../../src/delivery/pr-forge.js';
import type { PrForges } from '../../src/gateway/pr-forges.js';
import type { PrThread, PrThreadPatch, PrThreads } from '../../src/store/pr-thread-types.js';
import type { Forge } from '../../src/webhook/pr-event.js';

export function memoryPrThreads(now: () => number = () => 1_000): PrThreads & { readonly rows: Map<string, PrThread>; readonly updates: Array<[string, string, PrThreadPatch]> } {
  const rows = new Map<string, PrThread>();
  const updates: Array<[string, string, PrThreadPatch]> = [];
  return {
    rows,
    updates,
    get: async (route, prKey) => rows.get(`${route} ${prKey}`),
    update: async (route, prKey, patch) => {
      updates.push([route, prKey, patch]);
      const before = rows.get(`${route} ${prKey}`) ?? { route, prKey, sessionId: null, reviewedSha: null, summaryCommentId: null, paused: false, refusalSent: false, updatedAt: 0 };
      const defined = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
      const after: PrThread = { ...before, ...defined, updatedAt: now() };
      rows.set(`${route} ${prKey}`, after);
      return after;
    },
    prune: async (before) => {
      let removed = 0;
      for (const [key, row] of rows) {
        if (row.updatedAt < before && !row.paused) removed += Number(rows.delete(key));
      }
      return removed;
    },
  };
}

export const failure = (code: ForgeFailure['code'], retryable = false, message = `${code} from the fake`): ForgeFailure => ({ ok: false, code, retryable, message });

type Call = { readonly method: string; readonly args: readonly unknown[] };
type Method = 'postComment' | 'updateComment' | 'findComment' | 'compare' | 'whoAmI';

/** A code host with comments in memory. `failNext` queues failures for a method (used up in order). */
export function fakeForgeClient(options: { readonly login?: string; readonly compare?: ForgeResult<{ relation: CommitRelation; commits: number }> } = {}) {
  const login = options.login ?? 'iris-bot';
  const comments: Array<{ id: string; body: string; author: string }> = [];
  const calls: Call[] = [];
  const queued = new Map<Method, ForgeFailure[]>();
  let nextId = 100;
  const failing = (method: Method): ForgeFailure | undefined => queued.get(method)?.shift();
  const client: PrForgeClient = {
    async whoAmI() {
      calls.push({ method: 'whoAmI', args: [] });
      return failing('whoAmI') ?? { ok: true, value: login };
    },
    async postComment(pr: PrRef, body: string) {
      calls.push({ method: 'postComment', args: [pr, body] });
      const failed = failing('postComment');
      if (failed) return failed;
      const comment = { id: String(nextId++), body, author: login };
      comments.push(comment);
      return { ok: true, value: { id: comment.id, url: `https://example.test/c/${comment.id}` } };
    },
    async updateComment(pr: PrRef, id: string, body: string) {
      calls.push({ method: 'updateComment', args: [pr, id, body] });
      const failed = failing('updateComment');
      if (failed) return failed;
      const comment = comments.find((c) => c.id === id);
      if (!comment) return failure('not_found', false, `comment ${id} not found`);
      comment.body = body;
      return { ok: true, value: { id, url: `https://example.test/c/${id}` } };
    },
    async findComment(pr: PrRef, marker: string, find?: FindOptions) {
      calls.push({ method: 'findComment', args: [pr, marker, ...(find?.by === undefined ? [] : [find.by])] });
      const failed = failing('findComment');
      if (failed) return failed;
      const found = comments.find((c) => c.body.includes(marker) && (find?.by === undefined || c.author === find.by));
      return { ok: true, value: found ? ({ id: found.id, url: `https://example.test/c/${found.id}` } satisfies PostedComment) : null };
    },
    async compare(pr: PrRef, base: string, head: string) {
      calls.push({ method: 'compare', args: [pr, base, head] });
      return failing('compare') ?? options.compare ?? { ok: true, value: { relation: 'ahead', commits: 1 } };
    },
  };
  return {
    client,
    comments,
    calls,
    methods: () => calls.map((c) => c.method),
    failNext(method: Method, ...failures: ForgeFailure[]) {
      queued.set(method, [...(queued.get(method) ?? []), ...failures]);
    },
    /** A comment already on the PR: the bot's (a crashed delivery's) unless another author is named. */
    add(body: string, author = login): string {
      const id = String(nextId++);
      comments.push({ id, body, author });
      return id;
    },
  };
}

export type FakeForge = ReturnType<typeof fakeForgeClient>;

/** The planner's forges: one fake client per forge, GitLab access answered from a table. */
export function fakePrForges(clients: Partial<Record<Forge, FakeForge>>, gitlabAccess: (userId: number) => ForgeResult<boolean> = () => ({ ok: true, value: true })) {
  const accessCalls: Array<{ pr: PrRef; userId: number }> = [];
  const forges: PrForges = {
    client: (forge) => {
      const fake = clients[forge];
      return fake ? { ok: true, client: fake.client } : { ok: false, error: `no ${forge} client` };
    },
    botLogin: async (forge) => {
      const fake = clients[forge];
      return fake ? fake.client.whoAmI() : failure('unauthenticated', false, `no ${forge} client`);
    },
    knownLogin: () => undefined,
    gitlabMayCommand: async (pr, userId) => {
      accessCalls.push({ pr, userId });
      return gitlabAccess(userId);
    },
  };
  return { forges, accessCalls };
}

/** A ListenerLog that keeps its lines. */
export function memoryLog() {
  const lines: Array<{ level: string; fields: object; message: string }> = [];
  const at = (level: string) => (fields: object, message: string) => void lines.push({ level, fields, message });
  return { lines, log: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}
