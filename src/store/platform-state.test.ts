// The platform store against the contract in platform-types.ts, on both stores (SQLite and
// PostgreSQL): inbound dedup and one run per conversation, finishing a run with its replies in one
// transaction, the outbox's per-chat order and retries, sessions, pairing, and pruning. Times come
// from an injected clock, so every stamp is asserted exactly. (What only PostgreSQL's sharing
// across processes adds is in platform-state-shared.test.ts.)
import { beforeEach, describe, expect, it } from 'vitest';
import { STORE_BACKENDS, useStores } from '../../test/helpers/store-backends.js';
import type { InboundMessage } from '../platforms/types.js';
import type { NewOutboxMessage, PairingRequest } from './platform-types.js';
import type { Store } from './types.js';

const HOUR = 3_600_000;

function inbound(overrides: Partial<InboundMessage> = {}): InboundMessage {
  return {
    platform: 'telegram',
    chatId: '100',
    threadId: null,
    messageId: 'm1',
    userId: 'u1',
    userName: 'Ada',
    text: 'hello',
    isDirect: true,
    receivedAt: 500,
    ...overrides,
  };
}

function outbox(overrides: Partial<NewOutboxMessage> = {}): NewOutboxMessage {
  return { platform: 'telegram', chatId: '100', threadId: null, text: 'hi', origin: null, part: 0, ...overrides };
}

// On SQLite the store is the same on both connections the CLI and the gateway open; the gateway's
// (`server: true`) adds a writer thread, which must not change what these methods do.
const CASES = STORE_BACKENDS.flatMap((backend) =>
  backend.name === 'sqlite'
    ? [
        { ...backend, mode: 'in-process', server: false },
        { ...backend, mode: 'server', server: true },
      ]
    : [{ ...backend, mode: 'pool', server: false }],
);

describe.each(CASES)('store.platforms ($name, $mode)', (backend) => {
  const stores = useStores(backend);
  let store: Store;
  let clock = 1_000;
  beforeEach(async () => {
    clock = 1_000;
    store = await stores.open({ now: () => clock, server: backend.server });
  });

  describe('inbound', () => {
    it('stores a message as queued and reads it back whole', async () => {
      const p = store.platforms;
      expect(await p.recordInbound(inbound({ threadId: '7' }), 'telegram:100:7', 'queued')).toEqual({ stored: true, id: 1 });
      expect(await p.getInbound(1)).toEqual({
        id: 1,
        platform: 'telegram',
        chatId: '100',
        threadId: '7',
        messageId: 'm1',
        userId: 'u1',
        userName: 'Ada',
        text: 'hello',
        isDirect: true,
        receivedAt: 500,
        sessionKey: 'telegram:100:7',
        state: 'queued',
        attempts: 0,
        error: null,
        updatedAt: 1_000,
      });
      expect(await p.getInbound(2)).toBeUndefined();
      expect(await p.inboundDepth()).toBe(1);
    });

    it('deduplicates on (platform, chat, message): a redelivery is recognised with its id; another chat or platform is another message', async () => {
      const p = store.platforms;
      expect(await p.recordInbound(inbound(), 'telegram:100', 'queued')).toEqual({ stored: true, id: 1 });
      // The redelivery changes nothing, even with different text or state.
      clock = 2_000;
      expect(await p.recordInbound(inbound({ text: 'changed' }), 'telegram:100', 'ignored')).toEqual({ stored: false, id: 1 });
      expect(await p.getInbound(1)).toMatchObject({ text: 'hello', state: 'queued', updatedAt: 1_000 });
      // The same message id in another chat, or on another platform, is stored separately.
      expect(await p.recordInbound(inbound({ chatId: '200' }), 'telegram:200', 'queued')).toEqual({ stored: true, id: 2 });
      expect(await p.recordInbound(inbound({ platform: 'signal' }), 'signal:100', 'queued')).toEqual({ stored: true, id: 3 });
      expect(await p.recordInbound(inbound({ chatId: '200' }), 'telegram:200', 'queued')).toEqual({ stored: false, id: 2 });
      expect(await p.inboundDepth()).toBe(3);
    });

    it('stores an ignored message (no run) that is still recognised when delivered again', async () => {
      const p = store.platforms;
      expect(await p.recordInbound(inbound({ isDirect: false }), 'telegram:100', 'ignored')).toEqual({ stored: true, id: 1 });
      expect(await p.getInbound(1)).toMatchObject({ state: 'ignored', isDirect: false });
      expect(await p.recordInbound(inbound({ isDirect: false }), 'telegram:100', 'ignored')).toEqual({ stored: false, id: 1 });
      expect(await p.claimNextInbound()).toBeUndefined();
      expect(await p.inboundDepth()).toBe(0);
    });

    it('claims one message per conversation at a time, in id order; another conversation goes meanwhile', async () => {
      const p = store.platforms;
      await p.recordInbound(inbound({ messageId: 'a1' }), 'telegram:100', 'queued');
      await p.recordInbound(inbound({ messageId: 'a2' }), 'telegram:100', 'queued');
      await p.recordInbound(inbound({ chatId: '200', messageId: 'b1' }), 'telegram:200', 'queued');

      clock = 2_000;
      const first = await p.claimNextInbound();
      expect(first).toMatchObject({ id: 1, messageId: 'a1', state: 'running', attempts: 1, updatedAt: 2_000 });
      // a2 waits behind the running a1; b1's conversation is free.
      const second = await p.claimNextInbound();
      expect(second).toMatchObject({ id: 3, messageId: 'b1', state: 'running' });
      expect(await p.claimNextInbound()).toBeUndefined();
      expect(await p.getInbound(2)).toMatchObject({ state: 'queued', attempts: 0 });
      expect(await p.inboundDepth()).toBe(3);

      await p.finishInbound(1, { state: 'answered' }, []);
      expect(await p.claimNextInbound()).toMatchObject({ id: 2, messageId: 'a2', state: 'running', attempts: 1 });
      expect(await p.claimNextInbound()).toBeUndefined();
      await p.finishInbound(2, { state: 'answered' }, []);
      await p.finishInbound(3, { state: 'failed', error: 'model down' }, []);
      expect(await p.inboundDepth()).toBe(0);
      expect(await p.claimNextInbound()).toBeUndefined();
    });

    it('finishes a run with its replies in the outbox, in part order, in one transaction', async () => {
      const p = store.platforms;
      await p.recordInbound(inbound(), 'telegram:100', 'queued');
      await p.claimNextInbound();
      clock = 3_000;
      await p.finishInbound(1, { state: 'answered' }, [
        outbox({ origin: 'inbound:1', part: 0, text: 'first part' }),
        outbox({ origin: 'inbound:1', part: 1, text: 'second part' }),
      ]);
      expect(await p.getInbound(1)).toMatchObject({ state: 'answered', error: null, updatedAt: 3_000 });
      const sent = await p.claimDueOutbox('telegram', 3_000, 10);
      // Only the head of the chat is due; the parts go one after the other.
      expect(sent.map((m) => [m.id, m.origin, m.part, m.text])).toEqual([[1, 'inbound:1', 0, 'first part']]);
      await p.markSent(1, 'tg-1');
      expect((await p.claimDueOutbox('telegram', 3_000, 10)).map((m) => [m.id, m.part, m.text])).toEqual([[2, 1, 'second part']]);
    });

    it('records a failed run with its error', async () => {
      const p = store.platforms;
      await p.recordInbound(inbound(), 'telegram:100', 'queued');
      await p.claimNextInbound();
      await p.finishInbound(1, { state: 'failed', error: 'iteration limit' }, [outbox({ origin: 'inbound:1', text: 'sorry' })]);
      expect(await p.getInbound(1)).toMatchObject({ state: 'failed', error: 'iteration limit' });
      expect(await p.outboxDepth()).toBe(1);
    });

    it('changes nothing when a reply cannot be stored: the message stays running, no part is queued', async () => {
      const p = store.platforms;
      await p.recordInbound(inbound(), 'telegram:100', 'queued');
      await p.claimNextInbound();
      const broken = { ...outbox({ origin: 'inbound:1', part: 1 }), text: null } as unknown as NewOutboxMessage;
      await expect(p.finishInbound(1, { state: 'answered' }, [outbox({ origin: 'inbound:1', part: 0 }), broken])).rejects.toThrow();
      expect(await p.getInbound(1)).toMatchObject({ state: 'running' });
      expect(await p.outboxDepth()).toBe(0);
      expect(await p.getOutbox(1)).toBeUndefined();
    });

    it('enqueues a finished run only once: finishing again adds no second copy of its replies', async () => {
      const p = store.platforms;
      await p.recordInbound(inbound(), 'telegram:100', 'queued');
      await p.claimNextInbound();
      const replies = [outbox({ origin: 'inbound:1', part: 0 }), outbox({ origin: 'inbound:1', part: 1 })];
      await p.finishInbound(1, { state: 'answered' }, replies);
      await p.finishInbound(1, { state: 'answered' }, replies);
      expect(await p.outboxDepth()).toBe(2);
    });

    it('releases a running message back to queued (attempts kept); a message not running is left alone', async () => {
      const p = store.platforms;
      await p.recordInbound(inbound(), 'telegram:100', 'queued');
      await p.claimNextInbound();
      clock = 2_000;
      await p.releaseInbound(1);
      expect(await p.getInbound(1)).toMatchObject({ state: 'queued', attempts: 1, updatedAt: 2_000 });
      expect(await p.claimNextInbound()).toMatchObject({ id: 1, attempts: 2 });
      await p.finishInbound(1, { state: 'answered' }, []);
      await p.releaseInbound(1);
      expect(await p.getInbound(1)).toMatchObject({ state: 'answered' });
    });

    it('recovers every running message at start and counts them', async () => {
      const p = store.platforms;
      await p.recordInbound(inbound({ messageId: 'a' }), 'telegram:100', 'queued');
      await p.recordInbound(inbound({ chatId: '200', messageId: 'b' }), 'telegram:200', 'queued');
      await p.recordInbound(inbound({ chatId: '300', messageId: 'c' }), 'telegram:300', 'queued');
      await p.claimNextInbound();
      await p.claimNextInbound();
      clock = 5_000;
      expect(await p.recoverInbound()).toBe(2);
      expect(await p.getInbound(1)).toMatchObject({ state: 'queued', attempts: 1, updatedAt: 5_000 });
      expect(await p.getInbound(3)).toMatchObject({ state: 'queued', attempts: 0, updatedAt: 1_000 });
      expect(await p.recoverInbound()).toBe(0);
      expect(await p.inboundDepth()).toBe(3);
    });

    it('refuses a state outside the five at the database', async () => {
      await expect(store.platforms.recordInbound(inbound(), 'telegram:100', 'later' as never)).rejects.toThrow();
      expect(await store.platforms.getInbound(1)).toBeUndefined();
    });
  });

  describe('outbox', () => {
    it('enqueues due now and reads a message back whole', async () => {
      const p = store.platforms;
      expect(await p.enqueue([outbox({ threadId: '9', origin: 'webhook:e1' })])).toEqual([1]);
      expect(await p.getOutbox(1)).toEqual({
        id: 1,
        platform: 'telegram',
        chatId: '100',
        threadId: '9',
        text: 'hi',
        origin: 'webhook:e1',
        part: 0,
        state: 'queued',
        attempts: 0,
        nextAttemptAt: 1_000,
        lastError: null,
        sentMessageId: null,
        createdAt: 1_000,
        updatedAt: 1_000,
      });
      expect(await p.getOutbox(2)).toBeUndefined();
      expect(await p.nextOutboxAttempt()).toBe(1_000);
      expect(await p.outboxDepth()).toBe(1);
    });

    it('deduplicates on (origin, part), returning the stored id; a null origin is never deduplicated', async () => {
      const p = store.platforms;
      expect(await p.enqueue([outbox({ origin: 'inbound:1', part: 0 }), outbox({ origin: 'inbound:1', part: 1 })])).toEqual([1, 2]);
      expect(await p.enqueue([outbox({ origin: 'inbound:1', part: 1, text: 'again' }), outbox({ origin: 'inbound:1', part: 2 })])).toEqual([2, 3]);
      expect((await p.getOutbox(2))?.text).toBe('hi');
      // The same (origin, part) within one call is added once too.
      expect(await p.enqueue([outbox({ origin: 'webhook:x' }), outbox({ origin: 'webhook:x' })])).toEqual([4, 4]);
      expect(await p.enqueue([outbox(), outbox()])).toEqual([5, 6]);
      expect(await p.enqueue([outbox()])).toEqual([7]);
      expect(await p.outboxDepth()).toBe(7);
    });

    it('claims per platform: another platform keeps its queue', async () => {
      const p = store.platforms;
      await p.enqueue([outbox({ platform: 'signal', chatId: '+1555' }), outbox({ chatId: '100' })]);
      clock = 2_000;
      const claimed = await p.claimDueOutbox('telegram', 2_000, 10);
      expect(claimed).toEqual([expect.objectContaining({ id: 2, platform: 'telegram', state: 'sending', updatedAt: 2_000 })]);
      expect(await p.getOutbox(2)).toMatchObject({ state: 'sending', attempts: 0, updatedAt: 2_000 });
      expect(await p.getOutbox(1)).toMatchObject({ state: 'queued' });
      expect(await p.claimDueOutbox('telegram', 2_000, 10)).toEqual([]);
      expect((await p.claimDueOutbox('signal', 2_000, 10)).map((m) => m.id)).toEqual([1]);
    });

    it('claims only the head of each chat, oldest first, up to the limit', async () => {
      const p = store.platforms;
      await p.enqueue([outbox({ chatId: 'a', text: 'a1' }), outbox({ chatId: 'b', text: 'b1' }), outbox({ chatId: 'a', text: 'a2' }), outbox({ chatId: 'c', text: 'c1' })]);
      expect((await p.claimDueOutbox('telegram', 1_000, 2)).map((m) => m.text)).toEqual(['a1', 'b1']);
      // a2 waits while a1 is being sent.
      expect((await p.claimDueOutbox('telegram', 1_000, 10)).map((m) => m.text)).toEqual(['c1']);
      await p.markSent(1, 'x');
      expect((await p.claimDueOutbox('telegram', 1_000, 10)).map((m) => m.text)).toEqual(['a2']);
    });

    it('respects next_attempt_at; a chat whose head waits for a retry holds back its later messages, another chat still goes', async () => {
      const p = store.platforms;
      await p.enqueue([outbox({ chatId: 'a', text: 'a1' }), outbox({ chatId: 'a', text: 'a2' })]);
      await p.claimDueOutbox('telegram', 1_000, 10);
      clock = 1_500;
      await p.scheduleRetry(1, 6_000, '429 too many requests');
      expect(await p.getOutbox(1)).toMatchObject({ state: 'queued', attempts: 1, nextAttemptAt: 6_000, lastError: '429 too many requests', updatedAt: 1_500 });
      await p.enqueue([outbox({ chatId: 'b', text: 'b1' })]);
      // a2 is due by its own time, but a1 is ahead of it.
      expect((await p.claimDueOutbox('telegram', 2_000, 10)).map((m) => m.text)).toEqual(['b1']);
      expect(await p.claimDueOutbox('telegram', 5_999, 10)).toEqual([]);
      expect(await p.nextOutboxAttempt()).toBe(1_000);
      expect((await p.claimDueOutbox('telegram', 6_000, 10)).map((m) => [m.text, m.attempts])).toEqual([['a1', 1]]);
      clock = 7_000;
      await p.scheduleRetry(1, 31_000, '502');
      expect(await p.getOutbox(1)).toMatchObject({ attempts: 2, nextAttemptAt: 31_000, lastError: '502' });
      await p.claimDueOutbox('telegram', 31_000, 10);
      await p.markSent(1, 'tg-9');
      expect(await p.getOutbox(1)).toMatchObject({ state: 'sent', attempts: 3, sentMessageId: 'tg-9', lastError: null, updatedAt: 7_000 });
      expect((await p.claimDueOutbox('telegram', 31_000, 10)).map((m) => m.text)).toEqual(['a2']);
    });

    it('a failed head no longer holds its chat back', async () => {
      const p = store.platforms;
      await p.enqueue([outbox({ text: 'one' }), outbox({ text: 'two' })]);
      await p.claimDueOutbox('telegram', 1_000, 10);
      clock = 2_000;
      await p.markFailed(1, '403 bot was blocked');
      expect(await p.getOutbox(1)).toMatchObject({ state: 'failed', attempts: 1, lastError: '403 bot was blocked', updatedAt: 2_000 });
      expect((await p.claimDueOutbox('telegram', 2_000, 10)).map((m) => m.text)).toEqual(['two']);
    });

    it('counts the outbox rows that failed since a time (the health strip); queued, sending and sent ones are not', async () => {
      const p = store.platforms;
      await p.enqueue([outbox({ chatId: '1' }), outbox({ chatId: '2' }), outbox({ chatId: '3' }), outbox({ chatId: '4' })]);
      await p.claimDueOutbox('telegram', 1_000, 10);
      clock = 2_000;
      await p.markFailed(1, 'blocked');
      clock = 5_000;
      await p.markFailed(2, 'chat not found');
      await p.markSent(3, 'm3');
      expect(await p.outboxFailedSince(0)).toBe(2);
      expect(await p.outboxFailedSince(2_000)).toBe(2);
      expect(await p.outboxFailedSince(2_001)).toBe(1);
      expect(await p.outboxFailedSince(5_001)).toBe(0);
    });

    it('marks a message sent with a null platform id', async () => {
      const p = store.platforms;
      await p.enqueue([outbox()]);
      await p.claimDueOutbox('telegram', 1_000, 1);
      await p.markSent(1, null);
      expect(await p.getOutbox(1)).toMatchObject({ state: 'sent', sentMessageId: null, attempts: 1 });
      expect(await p.outboxDepth()).toBe(0);
      expect(await p.nextOutboxAttempt()).toBeUndefined();
    });

    it('recovers messages cut off mid-send, counts them, and keeps their attempts', async () => {
      const p = store.platforms;
      await p.enqueue([outbox({ chatId: 'a' }), outbox({ chatId: 'b' }), outbox({ chatId: 'c' })]);
      await p.claimDueOutbox('telegram', 1_000, 2);
      clock = 4_000;
      expect(await p.recoverOutbox()).toBe(2);
      expect(await p.getOutbox(1)).toMatchObject({ state: 'queued', attempts: 0, updatedAt: 4_000 });
      expect(await p.getOutbox(3)).toMatchObject({ state: 'queued', updatedAt: 1_000 });
      expect(await p.recoverOutbox()).toBe(0);
      expect((await p.claimDueOutbox('telegram', 4_000, 10)).map((m) => m.id)).toEqual([1, 2, 3]);
    });

    it('says of a claimed row whether it was claimed before: cut off mid-send, or tried and put back', async () => {
      const p = store.platforms;
      await p.enqueue([outbox({ chatId: 'a' }), outbox({ chatId: 'b' }), outbox({ chatId: 'c' })]);
      const first = await p.claimDueOutbox('telegram', 1_000, 3);
      expect(first.map((m) => m.triedBefore)).toEqual([undefined, undefined, undefined]);
      await p.scheduleRetry(2, 1_000, 'timed out');
      await p.markSent(3, 'x');
      clock = 4_000;
      expect(await p.recoverOutbox()).toBe(1);
      const again = await p.claimDueOutbox('telegram', 4_000, 3);
      expect(again.map((m) => [m.id, m.triedBefore])).toEqual([
        [1, true],
        [2, true],
      ]);
    });

    it('keeps a cursor per platform, replaced by the next one', async () => {
      const p = store.platforms;
      expect(await p.getCursor('discord')).toBeUndefined();
      await p.setCursor('discord', '{"s":1}');
      await p.setCursor('discord', '{"s":2}');
      await p.setCursor('slack', 'x');
      expect([await p.getCursor('discord'), await p.getCursor('slack'), await p.getCursor('telegram')]).toEqual(['{"s":2}', 'x', undefined]);
    });

    it('puts back only the rows of a claimer that is not alive: a live process keeps its sends', async () => {
      const p = store.platforms;
      await p.enqueue([outbox({ chatId: 'a' }), outbox({ chatId: 'b' }), outbox({ chatId: 'c' })]);
      await p.claimDueOutbox('telegram', 1_000, 1, 111);
      await p.claimDueOutbox('telegram', 1_000, 1, 222);
      await p.claimDueOutbox('telegram', 1_000, 1, 333);
      const alive = (pid: number) => pid === 222;
      expect(await p.recoverOutbox(alive)).toBe(2);
      expect((await Promise.all([1, 2, 3].map((id) => p.getOutbox(id)))).map((m) => m?.state)).toEqual(['queued', 'sending', 'queued']);
      expect(await p.recoverOutbox(alive)).toBe(0);
      expect(await p.recoverOutbox(() => false)).toBe(1);
    });

    it('the next attempt is the soonest of the queued messages; sending and finished ones do not count', async () => {
      const p = store.platforms;
      expect(await p.nextOutboxAttempt()).toBeUndefined();
      await p.enqueue([outbox({ chatId: 'a' }), outbox({ chatId: 'b' })]);
      await p.claimDueOutbox('telegram', 1_000, 2);
      expect(await p.nextOutboxAttempt()).toBeUndefined();
      await p.scheduleRetry(1, 9_000, 'e');
      await p.scheduleRetry(2, 8_000, 'e');
      expect(await p.nextOutboxAttempt()).toBe(8_000);
      expect(await p.outboxDepth()).toBe(2);
    });
  });

  describe('sessions', () => {
    it('maps a conversation to its session and points it at a new one', async () => {
      const p = store.platforms;
      expect(await p.sessionFor('telegram:100')).toBeUndefined();
      await p.setSession('telegram:100', 's_one');
      await p.setSession('telegram:200', 's_two');
      expect(await p.sessionFor('telegram:100')).toBe('s_one');
      await p.setSession('telegram:100', 's_three');
      expect(await p.sessionFor('telegram:100')).toBe('s_three');
      expect(await p.sessionFor('telegram:200')).toBe('s_two');
    });
  });

  describe('pairing', () => {
    function request(overrides: Partial<PairingRequest> = {}): PairingRequest {
      return { platform: 'telegram', userId: 'u1', userName: 'Ada', chatId: '100', code: 'ABCD2345', createdAt: clock, expiresAt: clock + HOUR, ...overrides };
    }

    it("stores a request, and answers the user's unexpired one instead of a second", async () => {
      const p = store.platforms;
      const first = request();
      expect(await p.requestPairing(first, clock)).toEqual({ request: first, created: true });
      clock = 2_000;
      expect(await p.requestPairing(request({ code: 'ZZZZ9999' }), clock)).toEqual({ request: first, created: false });
      expect(await p.pendingPairings(clock)).toEqual([first]);
      // Another user, or the same user id on another platform, gets a request of their own.
      expect((await p.requestPairing(request({ userId: 'u2', code: 'EFGH6789' }), clock)).created).toBe(true);
      expect((await p.requestPairing(request({ platform: 'signal', code: 'JKLM2345' }), clock)).created).toBe(true);
      // Oldest first; requests made at the same time by platform, then code.
      expect((await p.pendingPairings(clock)).map((r) => r.code)).toEqual(['ABCD2345', 'JKLM2345', 'EFGH6789']);
    });

    it('stores a new request once the old one has expired', async () => {
      const p = store.platforms;
      await p.requestPairing(request(), clock);
      clock = 1_000 + HOUR;
      const fresh = request({ code: 'NEWC0DE2' });
      expect(await p.requestPairing(fresh, clock)).toEqual({ request: fresh, created: true });
      expect(await p.pendingPairings(clock)).toEqual([fresh]);
    });

    it('stores a new request after expiry even when it draws the expired one’s code', async () => {
      const p = store.platforms;
      await p.requestPairing(request(), clock);
      clock = 1_000 + HOUR;
      const again = request();
      expect(await p.requestPairing(again, clock)).toEqual({ request: again, created: true });
      expect(await p.pendingPairings(clock)).toEqual([again]);
      expect(await p.approvePairing('telegram', 'ABCD2345', clock)).toMatchObject({ userId: 'u1' });
    });

    it('lists unexpired requests oldest first, per platform when asked', async () => {
      const p = store.platforms;
      await p.requestPairing(request({ userId: 'u1', code: 'AAAA1111' }), clock);
      clock = 2_000;
      await p.requestPairing(request({ platform: 'sms', userId: '+1555', chatId: '+1555', code: 'BBBB2222' }), clock);
      clock = 3_000;
      await p.requestPairing(request({ userId: 'u3', code: 'CCCC3333' }), clock);
      expect((await p.pendingPairings(clock)).map((r) => r.code)).toEqual(['AAAA1111', 'BBBB2222', 'CCCC3333']);
      expect((await p.pendingPairings(clock, 'telegram')).map((r) => r.code)).toEqual(['AAAA1111', 'CCCC3333']);
      expect((await p.pendingPairings(clock, 'signal'))).toEqual([]);
      // The first expires exactly an hour after it was made.
      expect((await p.pendingPairings(1_000 + HOUR)).map((r) => r.code)).toEqual(['BBBB2222', 'CCCC3333']);
    });

    it('approves a good code: the user is approved and their pending requests are removed', async () => {
      const p = store.platforms;
      await p.requestPairing(request(), clock);
      await p.requestPairing(request({ userId: 'u2', userName: null, code: 'OTHER234' }), clock);
      clock = 5_000;
      expect(await p.approvePairing('telegram', 'ABCD2345', clock)).toEqual({ platform: 'telegram', userId: 'u1', userName: 'Ada', approvedAt: 5_000 });
      expect(await p.isApproved('telegram', 'u1')).toBe(true);
      expect(await p.isApproved('signal', 'u1')).toBe(false);
      expect((await p.pendingPairings(clock)).map((r) => r.userId)).toEqual(['u2']);
      // The code is spent.
      expect(await p.approvePairing('telegram', 'ABCD2345', clock)).toBeUndefined();
    });

    it('refuses an unknown code, a code of another platform, a code in other case, and an expired code', async () => {
      const p = store.platforms;
      await p.requestPairing(request(), clock);
      expect(await p.approvePairing('telegram', 'NOPE2345', clock)).toBeUndefined();
      expect(await p.approvePairing('signal', 'ABCD2345', clock)).toBeUndefined();
      expect(await p.approvePairing('telegram', 'abcd2345', clock)).toBeUndefined();
      expect(await p.approvePairing('telegram', 'ABCD2345', 1_000 + HOUR)).toBeUndefined();
      expect(await p.isApproved('telegram', 'u1')).toBe(false);
      expect(await p.approvedUsers()).toEqual([]);
    });

    it('approving a user again refreshes their name and time', async () => {
      const p = store.platforms;
      await p.requestPairing(request(), clock);
      await p.approvePairing('telegram', 'ABCD2345', clock);
      clock = 9_000;
      await p.requestPairing(request({ userName: 'Ada L.', code: 'SECOND22' }), clock);
      expect(await p.approvePairing('telegram', 'SECOND22', clock)).toEqual({ platform: 'telegram', userId: 'u1', userName: 'Ada L.', approvedAt: 9_000 });
      expect(await p.approvedUsers()).toHaveLength(1);
    });

    it('revokes an approved user (true) and says false for one who was not', async () => {
      const p = store.platforms;
      await p.requestPairing(request(), clock);
      await p.approvePairing('telegram', 'ABCD2345', clock);
      expect(await p.revokeUser('signal', 'u1')).toBe(false);
      expect(await p.revokeUser('telegram', 'u1')).toBe(true);
      expect(await p.isApproved('telegram', 'u1')).toBe(false);
      expect(await p.revokeUser('telegram', 'u1')).toBe(false);
    });

    it('lists approved users by platform, then approval time, then user id; one platform when asked', async () => {
      const p = store.platforms;
      const approve = async (platform: PairingRequest['platform'], userId: string, code: string, at: number) => {
        clock = at;
        await p.requestPairing(request({ platform, userId, code }), at);
        await p.approvePairing(platform, code, at);
      };
      await approve('telegram', 'u9', 'CODE0001', 3_000);
      await approve('telegram', 'u5', 'CODE0002', 2_000);
      await approve('sms', '+1555', 'CODE0003', 4_000);
      await approve('telegram', 'u1', 'CODE0004', 3_000);
      expect((await p.approvedUsers()).map((u) => [u.platform, u.userId, u.approvedAt])).toEqual([
        ['sms', '+1555', 4_000],
        ['telegram', 'u5', 2_000],
        ['telegram', 'u1', 3_000],
        ['telegram', 'u9', 3_000],
      ]);
      expect((await p.approvedUsers('telegram')).map((u) => u.userId)).toEqual(['u5', 'u1', 'u9']);
      expect(await p.approvedUsers('signal')).toEqual([]);
    });
  });

  describe('prune', () => {
    it('removes only finished rows last changed before the cut, and expired pairing requests', async () => {
      const p = store.platforms;
      // Old rows (stamped at 1 000): one of each state.
      await p.recordInbound(inbound({ messageId: 'answered' }), 'k:answered', 'queued');
      await p.recordInbound(inbound({ messageId: 'failed' }), 'k:failed', 'queued');
      await p.recordInbound(inbound({ messageId: 'ignored' }), 'k:ignored', 'ignored');
      await p.recordInbound(inbound({ messageId: 'running' }), 'k:running', 'queued');
      await p.recordInbound(inbound({ messageId: 'queued' }), 'k:queued', 'queued');
      await p.claimNextInbound();
      await p.claimNextInbound();
      await p.claimNextInbound();
      await p.finishInbound(1, { state: 'answered' }, []);
      await p.finishInbound(2, { state: 'failed', error: 'x' }, []);
      await p.enqueue([outbox({ chatId: 'sent' }), outbox({ chatId: 'failed' }), outbox({ chatId: 'sending' }), outbox({ chatId: 'queued' })]);
      await p.claimDueOutbox('telegram', 1_000, 3);
      await p.markSent(1, null);
      await p.markFailed(2, 'x');
      await p.requestPairing({ platform: 'telegram', userId: 'old', userName: null, chatId: '1', code: 'OLD00001', createdAt: 1_000, expiresAt: 1_000 + HOUR }, 1_000);
      // Newer finished rows (stamped at 50 000) survive a cut at 10 000.
      clock = 50_000;
      await p.recordInbound(inbound({ messageId: 'new' }), 'k:new', 'ignored');
      await p.enqueue([outbox({ platform: 'signal', chatId: 'new' })]);
      await p.claimDueOutbox('signal', 50_000, 1);
      await p.markSent(5, null);
      await p.requestPairing({ platform: 'telegram', userId: 'new', userName: null, chatId: '1', code: 'NEW00001', createdAt: 50_000, expiresAt: 50_000 + HOUR }, 50_000);

      const now = 1_000 + HOUR;
      expect(await p.prune(10_000, now)).toBe(3 + 2 + 1);
      expect(await p.getInbound(1)).toBeUndefined();
      expect(await p.getInbound(2)).toBeUndefined();
      expect(await p.getInbound(3)).toBeUndefined();
      expect(await p.getInbound(4)).toMatchObject({ state: 'running' });
      expect(await p.getInbound(5)).toMatchObject({ state: 'queued' });
      expect(await p.getInbound(6)).toMatchObject({ state: 'ignored' });
      expect(await p.getOutbox(1)).toBeUndefined();
      expect(await p.getOutbox(2)).toBeUndefined();
      expect(await p.getOutbox(3)).toMatchObject({ state: 'sending' });
      expect(await p.getOutbox(4)).toMatchObject({ state: 'queued' });
      expect(await p.getOutbox(5)).toMatchObject({ state: 'sent' });
      expect((await p.pendingPairings(now)).map((r) => r.code)).toEqual(['NEW00001']);
      // The redelivery of a pruned message is no longer recognised (the window is the prune age).
      expect(await p.recordInbound(inbound({ messageId: 'ignored' }), 'k:ignored', 'ignored')).toMatchObject({ stored: true });
      expect(await p.prune(10_000, now)).toBe(0);
    });

    it('keeps approved users', async () => {
      const p = store.platforms;
      await p.requestPairing({ platform: 'sms', userId: '+1555', userName: null, chatId: '+1555', code: 'SMS00001', createdAt: 1_000, expiresAt: 1_000 + HOUR }, 1_000);
      await p.approvePairing('sms', 'SMS00001', 1_000);
      expect(await p.prune(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)).toBe(0);
      expect(await p.isApproved('sms', '+1555')).toBe(true);
    });
  });
});
