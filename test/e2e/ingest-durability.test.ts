// A 202 tells the code host that its event is safe, and it will not send it again: so no 202 may
// leave before the fsync that covers the event's bytes in the WAL (a power cut after the 202 would
// lose it otherwise). The real gateway runs under `strace -f -y`, which records every pwrite64,
// fsync/fdatasync and socket write of every thread, in order; for each event the test finds the
// pwrite64 that put its unique marker into state.db-wal, an fsync of state.db-wal that began
// after that write returned, and checks that the fsync returned before the 202 for that event
// began to be written. Sequential events, and a burst that the writer commits in groups.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postEvent } from '../helpers/gateway.js';
import { cleanEnv, IRIS_BIN, makeTempDir, removeDir } from '../helpers/iris.js';
import { parseStrace, type TracedCall } from '../helpers/strace.js';

const STRACE = '/usr/bin/strace';
const SECRET = 'durability-secret-0123456789';

let dir: string;
let home: string;
beforeEach(async () => {
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
  await writeFile(
    join(home, 'config.yaml'),
    `model:\n  provider: openai\n  default: main-m\nplatforms:\n  webhook:\n    enabled: true\n    extra:\n      host: 127.0.0.1\n      port: 0\n      routes:\n        pr:\n          secret: ${SECRET}\n          events: [push]\n`,
    { mode: 0o600 },
  );
});
afterEach(() => removeDir(dir));

type Traced = { url: string; pid: number; exited: Promise<number | null>; output: () => string };

/** `iris gateway run` under strace, once it listens. */
function startTracedGateway(traceFile: string): Promise<Traced> {
  const child = spawn(STRACE, ['-f', '-y', '-qq', '-s', '8192', '-e', 'trace=pwrite64,pwritev,fsync,fdatasync,write,writev', '-o', traceFile, process.execPath, IRIS_BIN, 'gateway', 'run'], {
    // Runs fail fast (nothing listens on port 9): this test is about the accept path only.
    env: cleanEnv({ IRIS_HOME: home, OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the traced gateway did not start in 30 s:\n${text}`));
    }, 30_000);
    child.stdout.on('data', () => {
      const match = /gateway listening on 127\.0\.0\.1:(\d+) \(pid (\d+)\)/.exec(text);
      if (!match) return;
      clearTimeout(timer);
      resolve({ url: `http://127.0.0.1:${match[1]}`, pid: Number(match[2]), exited, output: () => text });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      // strace itself failing (no ptrace permission in a container) says why here.
      reject(new Error(`strace or the gateway exited (${code}) before listening:\n${text}`));
    });
  });
}

const isWal = (call: TracedCall) => call.args.includes('state.db-wal>');

/** The proof for one event: its bytes written to the WAL, an fsync of the WAL after them, then its 202. */
function proof(calls: readonly TracedCall[], marker: string, deliveryId: string) {
  const reply = calls.find((c) => (c.name === 'write' || c.name === 'writev') && c.args.includes('HTTP/1.1 202') && c.args.includes(`${deliveryId}\\"`));
  if (!reply) return { found: 'no 202 for this event in the trace' };
  // Later frames may carry the same page again (the worker pool updates a neighbouring row without
  // an fsync of its own); what counts is that some write of the event's bytes was fsync'd in time.
  const writes = calls.filter((c) => (c.name === 'pwrite64' || c.name === 'pwritev') && isWal(c) && c.args.includes(marker) && c.began < reply.began);
  if (writes.length === 0) return { found: 'the event was not written to state.db-wal before its 202' };
  const synced = writes.some((data) => calls.some((c) => (c.name === 'fsync' || c.name === 'fdatasync') && isWal(c) && c.began > data.returned && c.returned < reply.began));
  return { found: synced ? 'write, fsync, 202' : 'no fsync of state.db-wal between the write and the 202' };
}

describe('every 202 follows the fsync that covers its event', () => {
  it('one at a time, and in a burst of 16 at once', async () => {
    const traceFile = join(dir, 'trace.txt');
    const gateway = await startTracedGateway(traceFile);
    const tag = randomBytes(4).toString('hex');
    const events = Array.from({ length: 20 }, (_, i) => ({ deliveryId: `dur-${i}-${tag}`, marker: `durable-marker-${i}-${tag}` }));
    const post = ({ deliveryId, marker }: { deliveryId: string; marker: string }) =>
      postEvent(gateway.url, 'pr', { ref: 'main', marker }, { secret: SECRET, event: 'push', delivery: deliveryId });
    const statuses: number[] = [];
    for (const e of events.slice(0, 4)) statuses.push((await post(e)).status);
    statuses.push(...(await Promise.all(events.slice(4).map(post))).map((a) => a.status));
    expect(statuses).toEqual(Array(20).fill(202));

    process.kill(gateway.pid, 'SIGTERM');
    expect(await gateway.exited).toBe(0);
    const calls = parseStrace(await readFile(traceFile, 'utf8'));
    expect(calls.filter((c) => c.name === 'fsync' || c.name === 'fdatasync').length).toBeGreaterThan(0);
    expect(events.map((e) => proof(calls, e.marker, e.deliveryId))).toEqual(events.map(() => ({ found: 'write, fsync, 202' })));

    // The log has no line per accepted event at info, and a count at the stop.
    const log = (await readFile(join(home, 'logs', 'gateway.log'), 'utf8')).split('\n').filter(Boolean).map((line) => JSON.parse(line) as { msg: string; accepted?: number; by_route?: unknown });
    expect(log.filter((line) => line.msg === 'webhook accepted')).toEqual([]);
    expect(log.filter((line) => line.msg.startsWith('webhook events accepted'))).toEqual([expect.objectContaining({ msg: 'webhook events accepted: 20', accepted: 20, by_route: { pr: 20 } })]);
  });
});
