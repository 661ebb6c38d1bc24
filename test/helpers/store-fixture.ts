// A SQLite home with rows in every table `iris store copy` moves, written through the Store
// interface (as Iris writes them), for the copy tests.
import { openSqliteStore } from '../../src/store/sqlite-store.js';

/** Rows written per table by fillSqliteStore (usage: `usageRows`, to cross INSERT batch sizes). */
export type FixtureCounts = Readonly<Record<string, number>>;

export async function fillSqliteStore(statePath: string, options: { usageRows?: number } = {}): Promise<FixtureCounts> {
  let clock = 1_700_000_000_000;
  const store = await openSqliteStore(statePath, { now: () => clock++ });
  try {
    const first = await store.createSession({ source: 'cli', provider: 'openai', model: 'gpt-5', title: 'first' });
    const second = await store.createSession({ source: 'webhook:github', provider: 'anthropic', model: 'claude', title: null });
    await store.appendMessages(first.id, [
      { role: 'user', content: 'hello "quoted" Ünïcödé ✓' },
      { role: 'assistant', content: 'hi' },
    ]);
    await store.appendMessages(second.id, [{ role: 'user', content: 'review this' }]);
    const usageRows = options.usageRows ?? 3;
    for (let i = 0; i < usageRows; i++) {
      await store.recordUsage({ sessionId: i % 2 === 0 ? first.id : null, at: clock + i, provider: 'openai', model: 'gpt-5', task: i % 3 === 0 ? 'main' : 'compression', inputTokens: i, outputTokens: 2 * i, cachedTokens: 0, cacheWriteTokens: 0, source: 'cli', costUsd: i % 4 === 0 ? null : i / 1000 });
    }
    const snapshot = JSON.stringify({ name: 'github' });
    for (const deliveryId of ['d-1', 'd-2']) {
      await store.webhooks.accept({ route: 'github', deliveryId, deduplicate: true, event: 'push', payload: '{"ref":"main"}', routeSnapshot: snapshot, receivedAt: clock++ }, 0);
    }
    const parent = await store.kanban.create({ title: 'parent', body: 'the whole job' });
    await store.kanban.create({ title: 'child', parentId: parent.id, status: 'todo' });
    await store.skillLoads.record('git', first.id, clock++);
    await store.platforms.recordInbound({ platform: 'telegram', chatId: '42', threadId: null, messageId: 'm1', userId: 'u1', userName: 'Ann', text: 'hi bot', isDirect: true, receivedAt: clock++ }, 'telegram:42', 'queued');
    await store.platforms.enqueue([{ platform: 'telegram', chatId: '42', threadId: null, text: 'hello Ann', origin: 'inbound:1', part: 0 }]);
    await store.platforms.setSession('telegram:42', first.id);
    await store.platforms.setCursor('discord', '{"seq":7}');
    const pairing = await store.platforms.requestPairing({ platform: 'telegram', code: 'ABCD1234', userId: 'u2', userName: null, chatId: '43', createdAt: clock, expiresAt: clock + 3_600_000 }, clock);
    await store.platforms.requestPairing({ platform: 'slack', code: 'WXYZ5678', userId: 'u3', userName: 'Bo', chatId: 'C1', createdAt: clock, expiresAt: clock + 3_600_000 }, clock);
    await store.platforms.approvePairing('telegram', pairing.request.code, clock);
    await store.prThreads.update('github', 'github:o/r#12', { sessionId: second.id, reviewedSha: 'abc123', paused: true });
    await store.prFindings.record({ route: 'github', prKey: 'github:o/r#12', fingerprint: 'f'.repeat(64), path: 'a.ts', line: 3, lineText: 'x();', title: 'T', severity: 'nit', state: 'open', threadId: 'PRRT_1', commentId: '9', eventId: 1 });
    await store.prFindings.savePlan({ eventId: 1, route: 'github', prKey: 'github:o/r#12', plan: '{}' });
    return {
      sessions: 2,
      messages: 3,
      usage: usageRows,
      webhook_events: 2,
      webhook_dedup: 2,
      kanban_tasks: 2,
      skill_loads: 1,
      platform_inbound: 1,
      platform_outbox: 1,
      platform_sessions: 1,
      platform_pairing: 1,
      platform_cursors: 1,
      platform_approved_users: 1,
      pr_threads: 1,
      pr_findings: 1,
      pr_review_plans: 1,
    };
  } finally {
    await store.close();
  }
}
