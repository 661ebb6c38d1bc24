// The health strip's API: GET /api/health, polled every 2 s by every open tab, so it stays cheap:
// the pid files, the address file, one GET /health of the listener (1 s at most), the platform
// state file, and a few counts from the store when one exists (none is created). The gateway view
// is the one `iris gateway status` prints (src/gateway/status-view.ts), so the two never disagree.
import { WORKER_PID_FILE } from '../../domain/gateway-role.js';
import { readGatewayStatus } from '../../gateway/pid-file.js';
import { readGatewayView } from '../../gateway/status-view.js';
import type { Store } from '../../store/types.js';
import { EMPTY_INBOX, FAILING_WINDOW_MS, healthReport, type FailedCount } from '../health-report.js';
import type { RouteArea } from './route.js';

/**
 * How long the failure counts are reused: every open tab asks every 2 s, and the counts read the
 * failed rows; a failed delivery showing up 5 s late on the strip is fine.
 */
const FAILED_REUSE_MS = 5_000;

type FailedCounts = { readonly webhooks: FailedCount; readonly chatSends: FailedCount };

export const healthRoutes: RouteArea = (context) => {
  let last: { store: Store; at: number; counts: FailedCounts } | undefined;

  async function failedCounts(store: Store, now: number): Promise<FailedCounts> {
    if (last && last.store === store && now - last.at < FAILED_REUSE_MS) return last.counts;
    const since = now - FAILING_WINDOW_MS;
    const [webhooks, chatSends] = await Promise.all([store.webhooks.failedSince(since), store.platforms.outboxFailedSince(since)]);
    const counts = { webhooks: { count: webhooks }, chatSends: { count: chatSends } };
    last = { store, at: now, counts };
    return counts;
  }

  return [
    {
      method: 'GET',
      path: '/api/health',
      run: async () => {
        const config = await context.currentConfig();
        const [view, workerStatus, store] = await Promise.all([
          readGatewayView(context.paths, config),
          readGatewayStatus(context.paths, WORKER_PID_FILE),
          context.existingStore(),
        ]);
        if (!store) return healthReport({ view, workerStatus, inbox: EMPTY_INBOX, chat: { inbound: 0, outbox: 0 }, failedWebhooks: { count: 0 }, failedChatSends: { count: 0 } });
        const [inbox, inbound, outbox, failed] = await Promise.all([
          store.webhooks.depth(),
          store.platforms.inboundDepth(),
          store.platforms.outboxDepth(),
          failedCounts(store, Date.now()),
        ]);
        return healthReport({ view, workerStatus, inbox, chat: { inbound, outbox }, failedWebhooks: failed.webhooks, failedChatSends: failed.chatSends });
      },
    },
  ];
};
