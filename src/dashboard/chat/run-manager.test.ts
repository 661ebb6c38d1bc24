import { describe, expect, it } from 'vitest';
import type { ChatEvent, RunEndEvent } from './chat-items.js';
import { createRunManager, type RunHandle } from './run-manager.js';

/** Timers the test fires by hand, and ids that count. */
function fakeClock() {
  const timers = new Map<number, () => void>();
  let next = 0;
  return {
    timers,
    options: {
      newId: () => `id${++next}`,
      setTimer: (fn: () => void) => {
        timers.set(++next, fn);
        return next;
      },
      clearTimer: (timer: unknown) => void timers.delete(timer as number),
    },
    fireAll: () => [...timers.values()].forEach((fn) => fn()),
  };
}

/** A run whose steps the test drives: it resolves when told to. */
function controlledWork() {
  let handle: RunHandle | undefined;
  let finish: (end: RunEndEvent) => void = () => {};
  const work = (run: RunHandle) => {
    handle = run;
    return new Promise<RunEndEvent>((resolve) => {
      finish = resolve;
      if (run.signal.aborted) resolve({ type: 'stopped' });
      run.signal.addEventListener('abort', () => resolve({ type: 'stopped' }));
    });
  };
  return { work, handle: () => handle!, finish: (end: RunEndEvent) => finish(end) };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the run manager', () => {
  it('runs one turn per session, sends its events to every watcher and folds them for a late one', async () => {
    const clock = fakeClock();
    const manager = createRunManager(clock.options);
    const seen: ChatEvent[] = [];
    manager.watch('s1', (event) => seen.push(event));
    const run = controlledWork();
    const started = manager.start('s1', { text: 'hi', history: [{ kind: 'assistant', text: 'earlier' }] }, run.work);
    expect(started).toMatchObject({ ok: true, runId: 'id1' });
    expect(manager.start('s1', { text: 'again', history: [] }, controlledWork().work)).toEqual({ ok: false, code: 'busy' });
    await tick();
    run.handle().emit({ type: 'text', delta: 'Hel' });
    run.handle().emit({ type: 'text', delta: 'lo' });
    expect(manager.snapshot('s1')).toEqual({
      runId: 'id1',
      history: [{ kind: 'assistant', text: 'earlier' }],
      items: [{ kind: 'user', text: 'hi' }, { kind: 'assistant', text: 'Hello' }],
    });
    run.finish({ type: 'done', reason: 'done' });
    await (started.ok ? started.finished : undefined);
    expect(seen).toEqual([
      { type: 'run_start', runId: 'id1', text: 'hi' },
      { type: 'text', delta: 'Hel' },
      { type: 'text', delta: 'lo' },
      { type: 'done', reason: 'done' },
    ]);
    expect(manager.isRunning('s1')).toBe(false);
    expect(manager.snapshot('s1')).toBeUndefined();
  });

  it('keeps running when a watcher goes or throws', async () => {
    const manager = createRunManager(fakeClock().options);
    const seen: string[] = [];
    const leave = manager.watch('s1', () => seen.push('gone'));
    manager.watch('s1', () => {
      throw new Error('socket closed');
    });
    manager.watch('s1', (event) => seen.push(event.type));
    leave();
    const run = controlledWork();
    manager.start('s1', { text: 'hi', history: [] }, run.work);
    await tick();
    run.finish({ type: 'done', reason: 'done' });
    await manager.finished('s1');
    expect(seen).toEqual(['run_start', 'done']);
  });

  it('refuses a run beyond maxRuns and after close', async () => {
    const manager = createRunManager({ ...fakeClock().options, maxRuns: 1 });
    manager.start('s1', { text: 'a', history: [] }, controlledWork().work);
    expect(manager.start('s2', { text: 'b', history: [] }, controlledWork().work)).toEqual({ ok: false, code: 'full' });
    await manager.close();
    expect(manager.running).toBe(0);
    expect(manager.start('s3', { text: 'c', history: [] }, controlledWork().work)).toEqual({ ok: false, code: 'closed' });
  });

  it('turns a thrown error into an error event', async () => {
    const manager = createRunManager(fakeClock().options);
    const seen: ChatEvent[] = [];
    manager.watch('s1', (event) => seen.push(event));
    manager.start('s1', { text: 'a', history: [] }, () => Promise.reject(new Error('no store')));
    await manager.finished('s1');
    expect(seen.at(-1)).toEqual({ type: 'error', message: 'no store' });
  });

  it('answers an approval from the page, and denies one nobody answers within the timeout', async () => {
    const clock = fakeClock();
    const manager = createRunManager({ ...clock.options, approvalTimeoutMs: 300_000 });
    const seen: ChatEvent[] = [];
    manager.watch('s1', (event) => seen.push(event));
    const run = controlledWork();
    manager.start('s1', { text: 'a', history: [] }, run.work);
    await tick();
    const risk = { level: 'high' as const, reasons: ['rm'], source: 'pattern' as const };
    const first = run.handle().ask('rm -rf build', '/w', risk);
    const approval = seen.find((event) => event.type === 'approval');
    expect(approval).toEqual({ type: 'approval', id: 'id2', command: 'rm -rf build', cwd: '/w', risk });
    expect(manager.approvalSession('id2')).toBe('s1');
    expect(manager.answer('id2', true)).toBe(true);
    expect(await first).toEqual({ approved: true, reason: 'approved in the dashboard' });
    expect(manager.answer('id2', false)).toBe(false);

    const second = run.handle().ask('rm x', '/w', risk);
    clock.fireAll();
    expect(await second).toEqual({ approved: false, reason: 'no answer within 300 s' });
    expect(seen.filter((event) => event.type === 'approval_done')).toEqual([
      { type: 'approval_done', id: 'id2', approved: true, reason: 'approved in the dashboard' },
      { type: 'approval_done', id: 'id4', approved: false, reason: 'no answer within 300 s' },
    ]);
    expect(clock.timers.size).toBe(0);
  });

  it('Stop aborts the run and denies its waiting approval', async () => {
    const manager = createRunManager(fakeClock().options);
    const seen: ChatEvent[] = [];
    manager.watch('s1', (event) => seen.push(event));
    const run = controlledWork();
    manager.start('s1', { text: 'a', history: [] }, run.work);
    await tick();
    const waiting = run.handle().ask('rm x', '/w', { level: 'high', reasons: [], source: 'pattern' });
    expect(manager.stop('s1')).toBe(true);
    expect(await waiting).toEqual({ approved: false, reason: 'the run was stopped' });
    expect(await manager.finished('s1')).toEqual({ type: 'stopped' });
    expect(seen.at(-1)).toEqual({ type: 'stopped' });
    expect(manager.stop('s1')).toBe(false);
  });
});
