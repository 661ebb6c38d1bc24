// The webhook inbox shared by several processes on one PostgreSQL: concurrent accepts of one
// delivery, concurrent claims, lapsed leases, recovery and pending deliveries that never take a
// live worker's events, the inbox wake, and group commit. PostgreSQL only: a SQLite inbox is one
// host's file, and these are the guarantees only the shared database has to give.
//
// Two stores opened in one test process share its pid, so to each other they look like an
// earlier process with that pid (a dead one). Where who holds an event matters, the holders are
// inboxes given worker ids of their own, or rows set to another host's worker.
import { thisWorker } from './pg/pg-worker-id.js';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PG_TEST_URL } from '../../test/helpers/postgres.js';
import { STORE_BACKENDS, useStores } from '../../test/helpers/store-backends.js';
import type { PgContext } from './pg/pg-context.js';
import { createPgPool, toPgStoreError, type PgPool } from './pg/pg-pool.js';
import { createPgWebhookInbox } from './pg/pg-webhook-inbox.js';
import type { Store } from './types.js';
import type { NewWebhookEvent, WebhookInbox } from './webhook-types.js';

/** This host as a lease holder names it (the host name and, in a container, its pid namespace). */
const LOCAL_HOST = thisWorker().host;

const POSTGRES = STORE_BACKENDS.find((backend) => backend.name === 'postgres')!;
const LEASE_MS = 30_000;

describe('the webhook inbox shared by several processes (PostgreSQL)', () => {
  const stores = useStores(POSTGRES);
  let clock: number;
  let a: Store;
  let b: Store;
  const pools: PgPool[] = [];
  beforeEach(async () => {
    clock = 1_000_000;
    // Two processes on two hosts (one process's stores are one worker).
    a = await stores.open({ now: () => clock, worker: 'host-a:10:1' });
    b = await stores.reopen({ now: () => clock, worker: 'host-b:20:2' });
  });
  afterEach(async () => {
    for (const pool of pools.splice(0)) await pool.end();
  });

  /** An inbox in a process of its own: `worker` is who it is as a lease holder. */
  function inboxAs(worker: string): WebhookInbox {
    const schema = stores.location();
    const pool = createPgPool(PG_TEST_URL, { schema, max: 4 });
    pools.push(pool);
    const guarded: PgContext['guarded'] = async (work) => {
      try {
        return await work();
      } catch (err) {
        throw toPgStoreError(err, schema);
      }
    };
    return createPgWebhookInbox({ pool, now: () => clock, guarded, where: schema, worker, leaseMs: LEASE_MS, schema });
  }

  /** Another process's transaction, held open while the test goes on. */
  async function openTransaction(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: PG_TEST_URL, options: `-c search_path=${stores.location()}` });
    await client.connect();
    await client.query('BEGIN');
    return client;
  }

  const LANE = 'reviews|github:octo/widgets#12';

  function event(deliveryId: string, overrides: Partial<NewWebhookEvent> = {}): NewWebhookEvent {
    return { route: 'github-pr', deliveryId, deduplicate: true, event: 'pull_request', payload: '{}', routeSnapshot: '{}', receivedAt: clock, ...overrides };
  }

  async function acceptAll(store: Store, count: number, overrides: (i: number) => Partial<NewWebhookEvent> = () => ({})): Promise<number[]> {
    const outcomes = await Promise.all(Array.from({ length: count }, (_, i) => store.webhooks.accept(event(`d-${i}`, overrides(i)), 0)));
    return outcomes.map((o) => (o.status === 'accepted' ? o.id : -1));
  }

  it('200 concurrent accepts of 100 deliveries through two stores accept each delivery exactly once', async () => {
    const ids = Array.from({ length: 100 }, (_, i) => `delivery-${i}`);
    const outcomes = await Promise.all(ids.flatMap((id) => [a.webhooks.accept(event(id), 0), b.webhooks.accept(event(id), 0)]));
    expect(outcomes.filter((o) => o.status === 'accepted')).toHaveLength(100);
    expect(outcomes.filter((o) => o.status === 'duplicate')).toHaveLength(100);
    const rows = await stores.sql('SELECT delivery_id FROM webhook_events ORDER BY delivery_id');
    expect(rows.map((row) => row.delivery_id)).toEqual([...ids].sort());
    expect(await stores.sql('SELECT count(*) AS n FROM webhook_dedup')).toEqual([{ n: 100 }]);
  });

  it('an accept racing another process on one delivery waits for it: a duplicate if it commits, accepted if it rolls back', async () => {
    const outcomes: string[] = [];
    for (const end of ['COMMIT', 'ROLLBACK'] as const) {
      const other = await openTransaction();
      await other.query('INSERT INTO webhook_dedup (route, delivery_id, seen_at) VALUES ($1, $2, $3)', ['github-pr', `d-${end}`, clock]);
      const accepting = b.webhooks.accept(event(`d-${end}`), clock - 3_600_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await other.query(end);
      await other.end();
      outcomes.push((await accepting).status);
    }
    expect(outcomes).toEqual(['duplicate', 'accepted']);
  });

  it('two stores claiming at once over 50 events claim every event exactly once', async () => {
    await acceptAll(a, 50);
    const claimed: number[] = [];
    const claimer = async (store: Store) => {
      for (let record = await store.webhooks.claimNextRun(3); record; record = await store.webhooks.claimNextRun(3)) claimed.push(record.id);
    };
    await Promise.all([claimer(a), claimer(a), claimer(a), claimer(b), claimer(b), claimer(b)]);
    expect([...claimed].sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(await stores.sql("SELECT count(*) AS n FROM webhook_events WHERE state = 'running' AND run_attempts = 1")).toEqual([{ n: 50 }]);
  });

  it('claimers of two stores keep each lane one at a time and in order', async () => {
    // 5 lanes of 6 events, accepted interleaved; each claimer runs and delivers what it claims.
    const lanes = Array.from({ length: 5 }, (_, i) => `reviews|github:octo/widgets#${i}`);
    await acceptAll(a, 30, (i) => ({ lane: lanes[i % 5] }));
    const inFlight = new Set<string>();
    const order = new Map<string, number[]>();
    const overlaps: string[] = [];
    const claimer = async (store: Store) => {
      for (let record = await store.webhooks.claimNextRun(3); record; record = await store.webhooks.claimNextRun(3)) {
        const lane = record.lane!;
        if (inFlight.has(lane)) overlaps.push(`${lane} twice at event ${record.id}`);
        inFlight.add(lane);
        order.set(lane, [...(order.get(lane) ?? []), record.id]);
        await store.webhooks.finishRun(record.id, 'out');
        inFlight.delete(lane);
        await store.webhooks.markDelivered(record.id, 1);
      }
    };
    // A claimer that finds nothing claimable stops; rounds go on until every event is delivered.
    for (let round = 0; round < 30; round++) {
      await Promise.all([claimer(a), claimer(a), claimer(b), claimer(b)]);
      const [left] = await stores.sql("SELECT count(*) AS n FROM webhook_events WHERE state <> 'delivered'");
      if (left!.n === 0) break;
    }
    expect(overlaps).toEqual([]);
    expect(lanes.map((lane) => order.get(lane))).toEqual(lanes.map((_, l) => Array.from({ length: 6 }, (_, k) => l + 1 + k * 5)));
    expect(await stores.sql("SELECT count(*) AS n FROM webhook_events WHERE state = 'delivered' AND run_attempts = 1")).toEqual([{ n: 30 }]);
  });

  it('an older event of a lane that commits after a newer one has started waits for it', async () => {
    // Another listener has taken id 1 but not committed yet; this one accepts id 2 meanwhile.
    const listener = await openTransaction();
    await listener.query(
      "INSERT INTO webhook_events (route, delivery_id, event, payload, route_snapshot, state, received_at, updated_at, lane) VALUES ('reviews', 'late', 'issue_comment', '{}', '{}', 'accepted', $1, $1, $2)",
      [clock, LANE],
    );
    await b.webhooks.accept(event('early', { lane: LANE }), 0);
    expect(await a.webhooks.claimNextRun(3)).toMatchObject({ id: 2, deliveryId: 'early' });
    await listener.query('COMMIT');
    await listener.end();
    expect(await a.webhooks.claimNextRun(3)).toBeUndefined();
    await a.webhooks.finishRun(2, 'out');
    await a.webhooks.markDelivered(2, 1);
    expect(await b.webhooks.claimNextRun(3)).toMatchObject({ id: 1, deliveryId: 'late' });
  });

  it('a lane being claimed by another worker is re-checked once that claim commits', async () => {
    await stores.sql(
      "INSERT INTO webhook_events (route, delivery_id, event, payload, route_snapshot, state, received_at, updated_at, lane) VALUES ('reviews', 'older', 'x', '{}', '{}', 'accepted', 1, 1, ?)",
      [LANE],
    );
    await a.webhooks.accept(event('newer', { lane: LANE }), 0);
    // Imitates a claimer in another process in mid-claim of 2 (committed after 1 was seen free
    // elsewhere): it holds the lane's lock, as claims do, and has set 2 running, uncommitted.
    const claimer = await openTransaction();
    await claimer.query("SELECT pg_advisory_xact_lock(hashtextextended('iris:lane:' || current_schema() || ':' || $1, 0))", [LANE]);
    await claimer.query("UPDATE webhook_events SET state = 'running', worker = 'other-host:1:1', lease_until = $1 WHERE id = 2", [clock + LEASE_MS]);
    const claim = b.webhooks.claimNextRun(3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await claimer.query('COMMIT');
    await claimer.end();
    expect(await claim).toBeUndefined();
    expect(await stores.sql('SELECT id, state FROM webhook_events ORDER BY id')).toEqual([
      { id: 1, state: 'accepted' },
      { id: 2, state: 'running' },
    ]);
  });

  it('a run whose lease lapsed is claimed by another store, counting the attempt; the first can no longer release it', async () => {
    await a.webhooks.accept(event('d-1'), 0);
    expect(await a.webhooks.claimNextRun(3)).toMatchObject({ id: 1, state: 'running', runAttempts: 1 });
    expect(await stores.sql('SELECT lease_until FROM webhook_events')).toEqual([{ lease_until: 1_000_000 + LEASE_MS }]);
    clock += LEASE_MS;
    expect(await b.webhooks.claimNextRun(3)).toBeUndefined();
    clock += 1;
    expect(await b.webhooks.claimNextRun(3)).toMatchObject({ id: 1, state: 'running', runAttempts: 2 });
    await a.webhooks.releaseRun(1);
    expect(await b.webhooks.get(1)).toMatchObject({ state: 'running', runAttempts: 2 });
    // Nor can it record, skip or fail the run it lost: b's run is the one that counts.
    expect(await a.webhooks.finishRun(1, 'late answer')).toBe(false);
    await a.webhooks.skip(1, 'late skip');
    await a.webhooks.fail(1, 'late failure');
    expect(await b.webhooks.get(1)).toMatchObject({ state: 'running', output: null, error: null, skipReason: null });
    expect(await b.webhooks.finishRun(1, "b's answer")).toBe(true);
    expect(await b.webhooks.get(1)).toMatchObject({ state: 'done', output: "b's answer" });
    await stores.sql("UPDATE webhook_events SET state = 'running', output = NULL WHERE id = 1");
    // A lapsed lease with its attempts used up fails the event instead.
    clock += LEASE_MS + 1;
    expect(await a.webhooks.claimNextRun(2)).toBeUndefined();
    expect(await a.webhooks.get(1)).toMatchObject({ state: 'failed', error: 'gave up after 2 interrupted runs' });
  });

  it("nextRunAfter names the moment another worker's run becomes claimable, should its lease lapse", async () => {
    await a.webhooks.accept(event('d-1', { runAfter: clock + 50_000 }), 0);
    await a.webhooks.accept(event('d-2'), 0);
    const other = inboxAs('host-x:1:1');
    expect(await other.claimNextRun(3)).toMatchObject({ id: 2 });
    // Its own lease is no reason to wake; another's is.
    expect(await other.nextRunAfter(clock)).toBe(clock + 50_000);
    const self = inboxAs('host-y:2:2');
    expect(await self.nextRunAfter(clock)).toBe(clock + LEASE_MS + 1);
    expect(await self.nextRunAfter(clock + LEASE_MS + 1)).toBe(clock + 50_000);
  });

  it('recoverInterrupted takes back only runs nobody alive holds', async () => {
    await acceptAll(a, 5);
    for (let i = 0; i < 5; i++) await a.webhooks.claimNextRun(3);
    const fresh = clock + LEASE_MS;
    const holders: [number, string, number | null][] = [
      [1, 'other-host:4242:1', fresh], // another host, lease running: alive as far as anyone can tell
      [2, `${LOCAL_HOST}:${process.ppid}:1`, fresh], // a live process on this host
      [3, `${LOCAL_HOST}:99999999:1`, fresh], // a dead process on this host
      [4, 'other-host:4242:1', clock - 1], // another host whose lease lapsed
      [5, 'other-host:4242:1', null], // never leased (copied from SQLite)
    ];
    for (const [id, worker, leaseUntil] of holders) await stores.sql('UPDATE webhook_events SET worker = ?, lease_until = ? WHERE id = ?', [worker, leaseUntil, id]);
    // Recovered by a process on this host (b is on another host).
    const local = inboxAs(`${LOCAL_HOST}:${process.pid}:${Math.round(performance.timeOrigin)}`);
    expect(await local.recoverInterrupted()).toBe(3);
    expect(await stores.sql('SELECT id, state, worker FROM webhook_events ORDER BY id')).toEqual([
      { id: 1, state: 'running', worker: 'other-host:4242:1' },
      { id: 2, state: 'running', worker: `${LOCAL_HOST}:${process.ppid}:1` },
      { id: 3, state: 'accepted', worker: null },
      { id: 4, state: 'accepted', worker: null },
      { id: 5, state: 'accepted', worker: null },
    ]);
  });

  it('pendingDeliveries from two processes at once hands each finished run to exactly one of them', async () => {
    await acceptAll(a, 20);
    for (let id = 1; id <= 20; id++) {
      await a.webhooks.claimNextRun(3);
      await a.webhooks.finishRun(id, `out ${id}`);
    }
    // Their worker died on another host: its leases lapsed.
    await stores.sql("UPDATE webhook_events SET worker = 'gone-host:7:7', lease_until = ?", [clock - 1]);
    const x = inboxAs('host-x:1:1');
    const y = inboxAs('host-y:2:2');
    const [forX, forY] = await Promise.all([x.pendingDeliveries(), y.pendingDeliveries()]);
    const ids = [...forX, ...forY].map((record) => record.id).sort((p, q) => p - q);
    expect(ids).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    // Each holds its own now: asked again, each gets back exactly its own.
    expect((await x.pendingDeliveries()).map((record) => record.id)).toEqual(forX.map((record) => record.id));
    expect((await y.pendingDeliveries()).map((record) => record.id)).toEqual(forY.map((record) => record.id));
    const xIds = new Set(forX.map((record) => record.id));
    expect(await stores.sql('SELECT id, worker, lease_until FROM webhook_events ORDER BY id')).toEqual(
      ids.map((id) => ({ id, worker: xIds.has(id) ? 'host-x:1:1' : 'host-y:2:2', lease_until: clock + LEASE_MS })),
    );
  });

  it('pendingDeliveries({ othersOnly }) adopts what a dead worker left and never what this one is delivering', async () => {
    await acceptAll(a, 3);
    const x = inboxAs('host-x:1:1');
    for (let id = 1; id <= 3; id++) {
      await x.claimNextRun(3);
      await x.finishRun(id, `out ${id}`);
    }
    // Event 3 was finished by a worker on another host that died: its lease lapsed.
    await stores.sql("UPDATE webhook_events SET worker = 'gone-host:7:7', lease_until = ? WHERE id = 3", [clock - 1]);
    // x is delivering 1 and 2 itself: a periodic look leaves them alone, and takes 3.
    expect((await x.pendingDeliveries({ othersOnly: true })).map((record) => record.id)).toEqual([3]);
    expect((await x.pendingDeliveries({ othersOnly: true })).map((record) => record.id)).toEqual([]);
    // Another live worker gets none of them.
    expect(await inboxAs('host-y:2:2').pendingDeliveries({ othersOnly: true })).toEqual([]);
    // Once x's leases lapse (x died), y adopts all three.
    clock += LEASE_MS + 1;
    expect((await inboxAs('host-y:2:2').pendingDeliveries({ othersOnly: true })).map((record) => record.id)).toEqual([1, 2, 3]);
  });

  /** Resolves true when `store`'s inbox subscribers are woken, false after 2 s without a wake. */
  async function inboxWake(store: Store): Promise<() => Promise<boolean>> {
    let woken!: () => void;
    const wake = new Promise<boolean>((resolve) => (woken = () => resolve(true)));
    const unsubscribe = await store.wakeups!.subscribe('inbox', () => woken());
    return async () => {
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([wake, new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 2_000)))]);
      clearTimeout(timer);
      await unsubscribe();
      return outcome;
    };
  }

  it('an accept on one store wakes the inbox subscribers of another', async () => {
    const woken = await inboxWake(a);
    await b.webhooks.accept(event('d-1'), 0);
    expect(await woken()).toBe(true);
  });

  it('a run released or recovered on one store wakes the inbox subscribers of another', async () => {
    await acceptAll(b, 2);
    await b.webhooks.claimNextRun(3);
    await b.webhooks.claimNextRun(3);
    const afterRelease = await inboxWake(a);
    await b.webhooks.releaseRun(1);
    expect(await afterRelease()).toBe(true);
    await stores.sql("UPDATE webhook_events SET lease_until = ? WHERE id = 2", [clock - 1]);
    const afterRecovery = await inboxWake(a);
    expect(await b.webhooks.recoverInterrupted()).toBe(1);
    expect(await afterRecovery()).toBe(true);
  });

  it('accepts of one turn commit in one transaction; those arriving meanwhile, in the next one', async () => {
    const first = Array.from({ length: 10 }, (_, i) => a.webhooks.accept(event(`first-${i}`), 0));
    // The first batch's transaction is under way once this turn is over.
    await new Promise((resolve) => setImmediate(resolve));
    const second = Array.from({ length: 10 }, (_, i) => a.webhooks.accept(event(`second-${i}`), 0));
    const outcomes = await Promise.all([...first, ...second]);
    expect(outcomes).toEqual(Array.from({ length: 20 }, (_, i) => ({ status: 'accepted', id: i + 1 })));
    // xmin is the transaction that wrote a row.
    const rows = await stores.sql('SELECT id, xmin::text AS tx FROM webhook_events ORDER BY id');
    const transactions = (from: number, to: number) => new Set(rows.slice(from, to).map((row) => row.tx)).size;
    expect([transactions(0, 10), transactions(10, 20), transactions(0, 20)]).toEqual([1, 1, 2]);
  });
});
