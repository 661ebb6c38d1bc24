// The platform store shared by several processes: two PostgreSQL stores on one schema (a second
// `stores.reopen()` is what a second gateway process on another host would open). PostgreSQL only:
// a SQLite file is used by one gateway at a time (gateway.pid), so claims racing across processes,
// leases and LISTEN/NOTIFY exist only there. platform-state.test.ts holds the contract both share.
import { thisWorker } from './pg/pg-worker-id.js';
import pg from 'pg';
import { beforeEach, describe, expect, it } from 'vitest';
import { PG_TEST_URL } from '../../test/helpers/postgres.js';
import { useStores } from '../../test/helpers/store-backends.js';
import type { InboundMessage } from '../platforms/types.js';
import type { NewOutboxMessage } from './platform-types.js';
import type { Store, WakeChannel } from './types.js';

/** This host as a lease holder names it (the host name and, in a container, its pid namespace). */
const LOCAL_HOST = thisWorker().host;

const LEASE_MS = 30_000;

function inbound(overrides: Partial<InboundMessage> = {}): InboundMessage {
  return { platform: 'telegram', chatId: '100', threadId: null, messageId: 'm1', userId: 'u1', userName: 'Ada', text: 'hello', isDirect: true, receivedAt: 500, ...overrides };
}

function outbox(overrides: Partial<NewOutboxMessage> = {}): NewOutboxMessage {
  return { platform: 'telegram', chatId: '100', threadId: null, text: 'hi', origin: null, part: 0, ...overrides };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves when `channel` wakes the subscriber, or rejects after `ms`. */
async function nextWake(store: Store, channel: WakeChannel, ms = 5_000): Promise<{ woken: Promise<void>; stop: () => Promise<void> }> {
  let wake!: () => void;
  const woken = new Promise<void>((resolve, reject) => {
    wake = resolve;
    setTimeout(() => reject(new Error(`no wake on ${channel} within ${ms} ms`)), ms).unref();
  });
  const stop = await store.wakeups!.subscribe(channel, () => wake());
  return { woken, stop };
}

describe('store.platforms shared by two processes (postgres)', () => {
  const stores = useStores({ name: 'postgres' });
  let clock: number;
  let a: Store;
  let b: Store;
  beforeEach(async () => {
    clock = 1_000;
    a = await stores.open({ now: () => clock });
    b = await stores.reopen({ now: () => clock });
  });

  /** Marks rows as held by another worker, as a process elsewhere would have claimed them. */
  const holdAs = async (table: 'platform_inbound' | 'platform_outbox', ids: readonly number[], worker: string, leaseUntil: number) => {
    for (const id of ids) await stores.sql(`UPDATE ${table} SET worker = ?, lease_until = ? WHERE id = ?`, [worker, leaseUntil, id]);
  };

  describe('inbound', () => {
    it('stores one copy of a message both processes receive at once, and both get its id', async () => {
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? a : b).platforms.recordInbound(inbound(), 'telegram:100', 'queued')));
      expect(results.filter((r) => r.stored)).toHaveLength(1);
      expect(new Set(results.map((r) => r.id))).toEqual(new Set([results.find((r) => r.stored)!.id]));
      expect(await stores.sql('SELECT count(*) AS n FROM platform_inbound')).toEqual([{ n: 1 }]);
    });

    it('never runs two messages of one conversation at once, hands each message out once, and keeps each conversation in order', async () => {
      const conversations = ['c1', 'c2', 'c3'];
      for (let i = 0; i < 6; i++) {
        for (const chat of conversations) await a.platforms.recordInbound(inbound({ chatId: chat, messageId: `${chat}-${i}` }), `telegram:${chat}`, 'queued');
      }
      const running = new Set<string>();
      const overlaps: string[] = [];
      const handed: string[] = [];
      const worker = async (store: Store) => {
        let idle = 0;
        while (idle < 5) {
          const record = await store.platforms.claimNextInbound();
          if (!record) {
            idle++;
            await pause(2);
            continue;
          }
          idle = 0;
          if (running.has(record.sessionKey)) overlaps.push(record.messageId);
          running.add(record.sessionKey);
          handed.push(record.messageId);
          await pause(1);
          running.delete(record.sessionKey);
          await store.platforms.finishInbound(record.id, { state: 'answered' }, []);
        }
      };
      await Promise.all([worker(a), worker(b), worker(a), worker(b)]);
      expect(overlaps).toEqual([]);
      expect([...handed].sort()).toEqual(conversations.flatMap((chat) => Array.from({ length: 6 }, (_, i) => `${chat}-${i}`)).sort());
      for (const chat of conversations) expect(handed.filter((id) => id.startsWith(`${chat}-`))).toEqual(Array.from({ length: 6 }, (_, i) => `${chat}-${i}`));
      expect(await a.platforms.inboundDepth()).toBe(0);
    });

    it("a claim that meets another claimer's lock on a conversation tries again once that one has committed", async () => {
      await a.platforms.recordInbound(inbound(), 'telegram:100', 'queued');
      // Stands in for another process's claim, mid-transaction, holding the conversation's lock.
      const other = new pg.Client({ connectionString: PG_TEST_URL, options: `-c search_path=${stores.location()}` });
      await other.connect();
      try {
        await other.query('BEGIN');
        await other.query("SELECT pg_advisory_xact_lock(hashtextextended('iris:inbound:' || current_schema() || ':' || $1, 0))", ['telegram:100']);
        const claim = b.platforms.claimNextInbound();
        await pause(8);
        await other.query('COMMIT');
        expect(await claim).toMatchObject({ id: 1, state: 'running', attempts: 1 });
      } finally {
        await other.end();
      }
    });

    it('a process that lost its lease cannot put the message back under the one that runs it now', async () => {
      await a.platforms.recordInbound(inbound(), 'telegram:100', 'queued');
      await a.platforms.claimNextInbound();
      clock += LEASE_MS + 1;
      await holdAs('platform_inbound', [1], 'elsewhere:4242:1', clock + LEASE_MS);
      await a.platforms.releaseInbound(1);
      expect(await a.platforms.getInbound(1)).toMatchObject({ state: 'running', attempts: 1 });
    });

    it('a running message is claimable by another process once its lease lapses, not before', async () => {
      await a.platforms.recordInbound(inbound(), 'telegram:100', 'queued');
      await a.platforms.recordInbound(inbound({ messageId: 'm2' }), 'telegram:100', 'queued');
      expect(await a.platforms.claimNextInbound()).toMatchObject({ id: 1, state: 'running', attempts: 1 });
      // The first process dies: nothing renews its lease any more.
      await a.close();
      clock = 1_000 + LEASE_MS;
      expect(await b.platforms.claimNextInbound()).toBeUndefined();
      clock = 1_000 + LEASE_MS + 1;
      expect(await b.platforms.claimNextInbound()).toMatchObject({ id: 1, messageId: 'm1', state: 'running', attempts: 2, updatedAt: clock });
      expect(await stores.sql('SELECT lease_until FROM platform_inbound WHERE id = 1')).toEqual([{ lease_until: clock + LEASE_MS }]);
      // m2 still waits behind m1.
      expect(await b.platforms.claimNextInbound()).toBeUndefined();
    });

    it("recoverInbound leaves a live worker's runs alone and takes back a lapsed lease's and a dead local process's", async () => {
      for (const chat of ['1', '2', '3', '4']) await a.platforms.recordInbound(inbound({ chatId: chat }), `telegram:${chat}`, 'queued');
      for (let i = 0; i < 4; i++) await a.platforms.claimNextInbound();
      await holdAs('platform_inbound', [1], 'elsewhere:4242:1', clock + LEASE_MS);
      await holdAs('platform_inbound', [2], `${LOCAL_HOST}:${process.ppid}:1`, clock + LEASE_MS);
      await holdAs('platform_inbound', [3], 'elsewhere:4243:1', clock - 1);
      // No process has this pid: a gateway on this host that died.
      await holdAs('platform_inbound', [4], `${LOCAL_HOST}:4194304:1`, clock + LEASE_MS);
      expect(await b.platforms.recoverInbound()).toBe(2);
      const states = await stores.sql('SELECT id, state, worker FROM platform_inbound ORDER BY id');
      expect(states).toEqual([
        { id: 1, state: 'running', worker: 'elsewhere:4242:1' },
        { id: 2, state: 'running', worker: `${LOCAL_HOST}:${process.ppid}:1` },
        { id: 3, state: 'queued', worker: null },
        { id: 4, state: 'queued', worker: null },
      ]);
    });
  });

  describe('outbox', () => {
    it('never hands a row out twice and keeps each chat in order when two processes drain at once', async () => {
      const chats = ['x', 'y', 'z'];
      for (let i = 0; i < 5; i++) for (const chat of chats) await a.platforms.enqueue([outbox({ chatId: chat, text: `${chat}${i}` })]);
      const sending = new Set<string>();
      const overlaps: string[] = [];
      const handed: string[] = [];
      const drain = async (store: Store) => {
        let idle = 0;
        while (idle < 5) {
          const due = await store.platforms.claimDueOutbox('telegram', clock, 2);
          if (due.length === 0) {
            idle++;
            await pause(2);
            continue;
          }
          idle = 0;
          for (const message of due) {
            if (sending.has(message.chatId)) overlaps.push(message.text);
            sending.add(message.chatId);
            handed.push(message.text);
          }
          await pause(1);
          for (const message of due) {
            sending.delete(message.chatId);
            await store.platforms.markSent(message.id, `sent-${message.id}`);
          }
        }
      };
      await Promise.all([drain(a), drain(b), drain(a), drain(b)]);
      expect(overlaps).toEqual([]);
      expect(handed).toHaveLength(15);
      for (const chat of chats) expect(handed.filter((text) => text.startsWith(chat))).toEqual([0, 1, 2, 3, 4].map((i) => `${chat}${i}`));
      expect(await a.platforms.outboxDepth()).toBe(0);
    });

    it('a worker whose lease lapsed cannot undo the send of the worker that took the row over', async () => {
      const other = await stores.reopen({ now: () => clock, worker: 'far-host:4242:1' });
      const [id] = await a.platforms.enqueue([outbox({ text: 'once' })]);
      expect((await a.platforms.claimDueOutbox('telegram', clock, 1)).map((m) => m.id)).toEqual([id]);
      clock += LEASE_MS + 1; // a stalls past its lease (renewals failed: the database was away)
      expect((await other.platforms.claimDueOutbox('telegram', clock, 1)).map((m) => m.id)).toEqual([id]);
      await other.platforms.markSent(id!, 'sent-by-other');
      // a's late outcome of its own try: none may turn the sent row back (it would go out twice).
      await a.platforms.scheduleRetry(id!, clock, 'timed out');
      await a.platforms.markFailed(id!, 'gave up');
      await a.platforms.markSent(id!, 'sent-by-a');
      expect(await a.platforms.getOutbox(id!)).toMatchObject({ state: 'sent', sentMessageId: 'sent-by-other', attempts: 1 });
      expect(await a.platforms.claimDueOutbox('telegram', clock + 600_000, 5)).toEqual([]);
    });

    it('stores one copy of a reply both processes enqueue at once, and both get its id', async () => {
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? a : b).platforms.enqueue([outbox({ origin: 'webhook:e1', part: 0 })])));
      expect(new Set(results.flat()).size).toBe(1);
      expect(await stores.sql('SELECT count(*) AS n FROM platform_outbox')).toEqual([{ n: 1 }]);
    });

    it('a sending row is claimable by another process once its lease lapses, and the chat waits until then', async () => {
      await a.platforms.enqueue([outbox({ text: 'one' }), outbox({ text: 'two' })]);
      expect((await a.platforms.claimDueOutbox('telegram', clock, 10)).map((m) => m.text)).toEqual(['one']);
      await a.close();
      clock = 1_000 + LEASE_MS;
      expect(await b.platforms.claimDueOutbox('telegram', clock, 10)).toEqual([]);
      clock = 1_000 + LEASE_MS + 1;
      expect(await b.platforms.claimDueOutbox('telegram', clock, 10, 777)).toEqual([expect.objectContaining({ id: 1, text: 'one', state: 'sending', attempts: 0, updatedAt: clock })]);
      expect(await stores.sql('SELECT claimed_by, lease_until FROM platform_outbox WHERE id = 1')).toEqual([{ claimed_by: 777, lease_until: clock + LEASE_MS }]);
      await b.platforms.markSent(1, null);
      expect((await b.platforms.claimDueOutbox('telegram', clock, 10)).map((m) => m.text)).toEqual(['two']);
    });

    it("recoverOutbox leaves a live worker's sends alone and puts back a lapsed lease's and a dead local process's", async () => {
      await a.platforms.enqueue(['1', '2', '3', '4'].map((chat) => outbox({ chatId: chat })));
      expect(await a.platforms.claimDueOutbox('telegram', clock, 10)).toHaveLength(4);
      await holdAs('platform_outbox', [1], 'elsewhere:4242:1', clock + LEASE_MS);
      await holdAs('platform_outbox', [2], `${LOCAL_HOST}:4242:1`, clock + LEASE_MS);
      await holdAs('platform_outbox', [3], 'elsewhere:4243:1', clock - 1);
      await holdAs('platform_outbox', [4], `${LOCAL_HOST}:4244:1`, clock + LEASE_MS);
      // Pid 4242 lives on this host; 4244 does not. Whether a pid elsewhere lives is never asked.
      const alive = (pid: number) => pid === 4242;
      expect(await b.platforms.recoverOutbox(alive)).toBe(2);
      expect(await stores.sql('SELECT id, state FROM platform_outbox ORDER BY id')).toEqual([
        { id: 1, state: 'sending' },
        { id: 2, state: 'sending' },
        { id: 3, state: 'queued' },
        { id: 4, state: 'queued' },
      ]);
      // Even "every claimer is dead" does not touch a live lease held on another host.
      expect(await b.platforms.recoverOutbox(() => false)).toBe(1);
      expect((await b.platforms.getOutbox(1))?.state).toBe('sending');
    });
  });

  describe('wakeups', () => {
    it('wakes the other process when a reply is enqueued', async () => {
      const { woken, stop } = await nextWake(a, 'outbox');
      await b.platforms.enqueue([outbox()]);
      await expect(woken).resolves.toBeUndefined();
      await stop();
    });

    it('wakes the other process when a finished run puts its replies in the outbox', async () => {
      await b.platforms.recordInbound(inbound(), 'telegram:100', 'queued');
      await b.platforms.claimNextInbound();
      const { woken, stop } = await nextWake(a, 'outbox');
      await b.platforms.finishInbound(1, { state: 'answered' }, [outbox({ origin: 'inbound:1' })]);
      await expect(woken).resolves.toBeUndefined();
      await stop();
    });

    it('wakes the other process when a message to run is received', async () => {
      const { woken, stop } = await nextWake(a, 'inbound');
      await b.platforms.recordInbound(inbound(), 'telegram:100', 'queued');
      await expect(woken).resolves.toBeUndefined();
      await stop();
    });
  });
});
