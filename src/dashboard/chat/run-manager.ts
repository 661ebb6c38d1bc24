// The dashboard's chat runs: at most one per session and a few per dashboard, each watched by any
// number of tabs. A run's events fold into its items as they come (chat-items.ts), so a tab that
// connects mid-answer gets everything said so far; a tab that goes away never stops the run (only
// Stop or the dashboard shutting down does). Approvals wait here for an answer from the page, and
// count as denied when none comes within `approvalTimeoutMs` or the run is stopped. No I/O: the
// work (the agent's turn) is injected, and so are ids and timers.
import { randomUUID } from 'node:crypto';
import { applyChatEvent, isRunEnd, type ChatEvent, type ChatItem, type RiskView, type RunEndEvent } from './chat-items.js';

export const DEFAULT_MAX_RUNS = 4;
/** How long an approval waits for a click before it counts as denied (nobody may be looking). */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 5 * 60_000;
/** How long close() lets runs wind down after the abort before it stops waiting. */
const CLOSE_GRACE_MS = 5_000;

export type ApprovalAnswer = { readonly approved: boolean; readonly reason: string };

/** What the work of a run gets: the abort signal of Stop, and its two ways to the page. */
export type RunHandle = {
  readonly id: string;
  readonly signal: AbortSignal;
  /** Sends an event to every watcher (end events are the work's return value, not emitted). */
  emit(event: Exclude<ChatEvent, RunEndEvent | { type: 'run_start' }>): void;
  /** Shows an approval on the page and waits for its answer (or the timeout, or Stop). */
  ask(command: string, cwd: string, risk: RiskView): Promise<ApprovalAnswer>;
};

export type RunWork = (run: RunHandle) => Promise<RunEndEvent>;

/** A session's running turn as a tab that connects now sees it. */
export type RunSnapshot = { readonly runId: string; readonly history: readonly ChatItem[]; readonly items: readonly ChatItem[] };

export type StartOutcome =
  | { readonly ok: true; readonly runId: string; readonly finished: Promise<RunEndEvent> }
  | { readonly ok: false; readonly code: 'busy' | 'full' | 'closed' };

export type Listener = (event: ChatEvent) => void;

type PendingApproval = { readonly sessionId: string; readonly settle: (answer: ApprovalAnswer) => void };

type Run = {
  readonly id: string;
  readonly sessionId: string;
  readonly history: readonly ChatItem[];
  items: ChatItem[];
  readonly controller: AbortController;
  readonly approvals: Set<string>;
  finished?: Promise<RunEndEvent>;
};

export type RunManagerOptions = {
  readonly maxRuns?: number;
  readonly approvalTimeoutMs?: number;
  readonly newId?: () => string;
  readonly setTimer?: (fn: () => void, ms: number) => unknown;
  readonly clearTimer?: (timer: unknown) => void;
};

export type RunManager = ReturnType<typeof createRunManager>;

export function createRunManager(options: RunManagerOptions = {}) {
  const maxRuns = options.maxRuns ?? DEFAULT_MAX_RUNS;
  const approvalTimeoutMs = options.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
  const newId = options.newId ?? (() => randomUUID());
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  const runs = new Map<string, Run>();
  const watchers = new Map<string, Set<Listener>>();
  const approvals = new Map<string, PendingApproval>();
  let closed = false;

  function publish(run: Run, event: ChatEvent): void {
    run.items = applyChatEvent(run.items, event);
    for (const listener of [...(watchers.get(run.sessionId) ?? [])]) {
      try {
        listener(event);
      } catch {
        // A broken watcher (a closed socket) must not break the run or the other tabs.
      }
    }
  }

  function ask(run: Run, command: string, cwd: string, risk: RiskView): Promise<ApprovalAnswer> {
    const id = newId();
    return new Promise<ApprovalAnswer>((resolve) => {
      let timer: unknown = undefined; // set once the approval is shown
      const settle = (answer: ApprovalAnswer) => {
        if (!approvals.delete(id)) return;
        run.approvals.delete(id);
        clearTimer(timer);
        publish(run, { type: 'approval_done', id, approved: answer.approved, reason: answer.reason });
        resolve(answer);
      };
      approvals.set(id, { sessionId: run.sessionId, settle });
      run.approvals.add(id);
      publish(run, { type: 'approval', id, command, cwd, risk });
      if (run.controller.signal.aborted) return settle({ approved: false, reason: 'the run was stopped' });
      timer = setTimer(() => settle({ approved: false, reason: `no answer within ${Math.round(approvalTimeoutMs / 1000)} s` }), approvalTimeoutMs);
    });
  }

  function denyAll(run: Run, reason: string): void {
    for (const id of [...run.approvals]) approvals.get(id)?.settle({ approved: false, reason });
  }

  return {
    /** Starts `work` for the session unless it already runs, the dashboard is full or closing. */
    start(sessionId: string, start: { readonly text: string; readonly history: readonly ChatItem[] }, work: RunWork): StartOutcome {
      if (closed) return { ok: false, code: 'closed' };
      if (runs.has(sessionId)) return { ok: false, code: 'busy' };
      if (runs.size >= maxRuns) return { ok: false, code: 'full' };
      const run: Run = { id: newId(), sessionId, history: start.history, items: [], controller: new AbortController(), approvals: new Set() };
      runs.set(sessionId, run);
      publish(run, { type: 'run_start', runId: run.id, text: start.text });
      const handle: RunHandle = {
        id: run.id,
        signal: run.controller.signal,
        emit: (event) => publish(run, event),
        ask: (command, cwd, risk) => ask(run, command, cwd, risk),
      };
      const finished = Promise.resolve()
        .then(() => work(handle))
        .catch((err: unknown): RunEndEvent => ({ type: 'error', message: err instanceof Error ? err.message : String(err) }))
        .then((end) => {
          denyAll(run, 'the run ended');
          runs.delete(sessionId);
          publish(run, isRunEnd(end) ? end : { type: 'error', message: 'the run ended without an outcome' });
          return end;
        });
      run.finished = finished;
      return { ok: true, runId: run.id, finished };
    },

    isRunning: (sessionId: string): boolean => runs.has(sessionId),

    /** How many chats are answering now. */
    runningCount: (): number => runs.size,

    /** Resolves with the end event of the session's running turn (undefined when none runs). */
    finished: (sessionId: string): Promise<RunEndEvent> | undefined => runs.get(sessionId)?.finished,

    /** The running turn of the session, for a tab that connects now. */
    snapshot(sessionId: string): RunSnapshot | undefined {
      const run = runs.get(sessionId);
      return run ? { runId: run.id, history: run.history, items: run.items } : undefined;
    },

    /** Every later event of the session's runs goes to `listener` until the returned function is called. */
    watch(sessionId: string, listener: Listener): () => void {
      const set = watchers.get(sessionId) ?? new Set<Listener>();
      set.add(listener);
      watchers.set(sessionId, set);
      return () => {
        set.delete(listener);
        if (set.size === 0 && watchers.get(sessionId) === set) watchers.delete(sessionId);
      };
    },

    /** Stop: aborts the turn (the agent keeps what was said) and denies its waiting approvals. */
    stop(sessionId: string): boolean {
      const run = runs.get(sessionId);
      if (!run) return false;
      run.controller.abort();
      denyAll(run, 'the run was stopped');
      return true;
    },

    /** The session an approval belongs to, while it waits. */
    approvalSession: (approvalId: string): string | undefined => approvals.get(approvalId)?.sessionId,

    answer(approvalId: string, approved: boolean): boolean {
      const pending = approvals.get(approvalId);
      if (!pending) return false;
      pending.settle({ approved, reason: approved ? 'approved in the dashboard' : 'denied in the dashboard' });
      return true;
    },

    /** The dashboard is shutting down: every run is stopped; resolves once they ended (or after a grace period). */
    async close(): Promise<void> {
      closed = true;
      const ending = [...runs.values()].flatMap((run) => {
        run.controller.abort();
        denyAll(run, 'the dashboard is shutting down');
        return run.finished ? [run.finished] : [];
      });
      let timer: unknown;
      const grace = new Promise<void>((resolve) => (timer = setTimer(resolve, CLOSE_GRACE_MS)));
      await Promise.race([Promise.allSettled(ending), grace]);
      clearTimer(timer);
    },

    get running(): number {
      return runs.size;
    },
  };
}
