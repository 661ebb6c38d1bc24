// `iris store backup <file>` through bin/iris as a subprocess: the copy opens with better-sqlite3
// and holds what the store held, also while a gateway is running and accepting events.
import { createRequire } from 'node:module';
import { copyFile, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { postEvent, startGatewayProcess, waitFor, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;

let fake: FakeUpstream;
let dir: string;
let home: string;
const running: GatewayProcess[] = [];

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
});
afterEach(async () => {
  for (const gateway of running.splice(0)) await gateway.stop('SIGKILL');
  await removeDir(dir);
});

const iris = (...args: string[]) => runIris(args, { home, env: { OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` } });
const mode = async (path: string) => ((await stat(path)).mode & 0o777).toString(8);

type Counts = { sessions: number; messages: number; webhook_events: number };

function countsOf(path: string): Counts & { integrity: string } {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { sessions: count('sessions'), messages: count('messages'), webhook_events: count('webhook_events'), integrity: db.pragma('integrity_check', { simple: true }) as string };
  } finally {
    db.close();
  }
}

async function seedSessions(n: number): Promise<void> {
  const store = await openSqliteStore(join(home, 'state.db'));
  try {
    for (let i = 0; i < n; i++) {
      const session = await store.createSession({ source: 'cli', provider: 'openai', model: 'main-m', title: `t${i}` });
      await store.appendMessages(session.id, [
        { role: 'user', content: `question ${i}` },
        { role: 'assistant', content: `answer ${i}` },
      ]);
    }
  } finally {
    await store.close();
  }
}

describe('iris store backup', () => {
  it('copies a store with sessions to a 0600 file that opens with the same rows', async () => {
    await seedSessions(3);
    const file = join(dir, 'backup.db');
    const result = await iris('store', 'backup', file);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const size = (await stat(file)).size;
    expect(result.stdout).toBe(`backed up ${join(home, 'state.db')} to ${file} (${size} bytes: 3 sessions, 0 webhook events)\n`);
    expect(await mode(file)).toBe('600');
    expect(countsOf(file)).toEqual({ sessions: 3, messages: 6, webhook_events: 0, integrity: 'ok' });
    expect(countsOf(join(home, 'state.db'))).toEqual(countsOf(file));
    // Self-contained: no journal beside it, no temp file left in the folder.
    await expect(stat(`${file}-wal`)).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await readdir(dir)).sort()).toEqual(['backup.db', 'home']);

    // Restore: the copy, put in place of state.db in another home, is a store Iris uses as it is.
    const restored = join(dir, 'restored');
    await mkdir(restored, { mode: 0o700 });
    await copyFile(file, join(restored, 'state.db'));
    const listed = await runIris(['sessions', 'list', '--json'], { home: restored });
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as Array<{ title: string }>).map((session) => session.title).sort()).toEqual(['t0', 't1', 't2']);
  });

  it('refuses to overwrite a file without --force (exit 1), replaces it with --force, and prints JSON', async () => {
    await seedSessions(1);
    const file = join(dir, 'backup.db');
    await writeFile(file, 'precious');
    const refused = await iris('store', 'backup', file);
    expect(refused).toEqual({ code: 1, stdout: '', stderr: `iris: error: ${file} exists already; choose another file, or replace it with --force\n` });
    expect(await readFile(file, 'utf8')).toBe('precious');

    const forced = await iris('store', 'backup', file, '--force', '--json');
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.stdout)).toEqual({ path: file, bytes: (await stat(file)).size, sessions: 1, webhook_events: 0 });
    expect(countsOf(file)).toMatchObject({ sessions: 1, messages: 2, integrity: 'ok' });
    expect(await mode(file)).toBe('600');
  });

  it('says when there is nothing to back up, when the folder is missing, and refuses the store itself even with --force', async () => {
    expect(await iris('store', 'backup', join(dir, 'b.db'))).toEqual({ code: 1, stdout: '', stderr: `iris: error: nothing to back up: ${join(home, 'state.db')} does not exist yet\n` });
    await seedSessions(1);
    expect(await iris('store', 'backup', join(dir, 'nope', 'b.db'))).toEqual({
      code: 1,
      stdout: '',
      stderr: `iris: error: cannot write ${join(dir, 'nope', 'b.db')}: the folder ${join(dir, 'nope')} does not exist\n`,
    });
    const self = await iris('store', 'backup', join(home, 'state.db'), '--force');
    expect(self).toEqual({ code: 2, stdout: '', stderr: `iris: error: ${join(home, 'state.db')} is the store itself; choose another file\n` });
    expect(countsOf(join(home, 'state.db'))).toMatchObject({ sessions: 1, integrity: 'ok' });
  });

  it('makes a consistent copy while a gateway is running and accepting events', async () => {
    await seedSessions(5);
    await writeFile(
      join(home, 'config.yaml'),
      'model:\n  provider: openai\n  default: main-m\nplatforms:\n  webhook:\n    enabled: true\n    extra:\n      host: 127.0.0.1\n      port: 0\n      rate_limit: 100000\n      routes:\n        pr:\n          secret: backup-test-secret-0123456789\n',
      { mode: 0o600 },
    );
    const gateway = await startGatewayProcess(home, { OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` });
    running.push(gateway);

    // Accept events without pause while the backups run.
    let accepted = 0;
    let posting = true;
    const refused: number[] = [];
    const load = (async () => {
      while (posting) {
        const answers = await Promise.all(Array.from({ length: 4 }, () => postEvent(gateway.url, 'pr', { action: 'opened', number: 1 }, { secret: 'backup-test-secret-0123456789' })));
        for (const answer of answers) {
          if (answer.status === 202) accepted += 1;
          else refused.push(answer.status);
        }
      }
    })();
    await waitFor(() => (accepted >= 20 ? true : undefined), 15_000, '20 accepted events');

    for (const name of ['during-1.db', 'during-2.db']) {
      const acceptedBefore = accepted;
      const file = join(dir, name);
      const result = await iris('store', 'backup', file, '--json');
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      // The gateway kept accepting while the copy was made.
      expect(accepted).toBeGreaterThan(acceptedBefore);
      const reported = JSON.parse(result.stdout) as { sessions: number; webhook_events: number };
      const copy = countsOf(file);
      expect(copy.integrity).toBe('ok');
      expect({ sessions: copy.sessions, webhook_events: copy.webhook_events }).toEqual({ sessions: reported.sessions, webhook_events: reported.webhook_events });
      // Every event answered 202 before the backup began is in the copy.
      expect(copy.webhook_events).toBeGreaterThanOrEqual(acceptedBefore);
      expect(copy.sessions).toBeGreaterThanOrEqual(5);
    }
    posting = false;
    await load;
    expect(refused).toEqual([]);

    // Once the gateway is idle (still running), a backup holds exactly what the store holds.
    await waitFor(
      () => {
        const db = new Database(join(home, 'state.db'), { readonly: true, fileMustExist: true });
        try {
          const busy = (db.prepare("SELECT count(*) AS n FROM webhook_events WHERE state IN ('accepted', 'running', 'done')").get() as { n: number }).n;
          return busy === 0 ? true : undefined;
        } finally {
          db.close();
        }
      },
      30_000,
      'every event run and delivered',
    );
    const file = join(dir, 'idle.db');
    expect((await iris('store', 'backup', file)).code).toBe(0);
    const copy = countsOf(file);
    expect(copy).toEqual(countsOf(join(home, 'state.db')));
    expect(copy.webhook_events).toBe(accepted);
    expect(gateway.child.exitCode).toBeNull();
  }, 60_000);
});
