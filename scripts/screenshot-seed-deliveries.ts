// The Deliveries page's screenshot data: recent webhook events in an already-seeded home's
// state.db, through store.webhooks as the gateway leaves them: PR reviews delivered as comments
// (one linked to the seeded webhook session), a CI push written to the log, a delivery that
// failed, a comment that was skipped and a review still running. Times are relative to `now`.
import { join } from 'node:path';
import { openSqliteStore } from '../src/store/sqlite-store.js';
import type { Store } from '../src/store/types.js';

const MINUTE = 60_000;

const reviewRoute = JSON.stringify({
  name: 'pr-review',
  source: 'subscription',
  prompt: 'Review PR #{number} in {repository.full_name}: {pull_request.title}',
  skills: [],
  deliver: 'forge_comment',
  deliver_extra: { repo: '{repository.full_name}', pr_number: '{number}' },
});
const ciRoute = JSON.stringify({ name: 'ci', source: 'config', prompt: 'Summarise the push to {ref} by {pusher.name}', skills: [], deliver: 'log', deliver_extra: {} });

const pr = (number: number, title: string) => JSON.stringify({ action: 'opened', number, repository: { full_name: 'acme/shop' }, pull_request: { title } });

type Seed = {
  readonly minutesAgo: number;
  readonly route: 'pr-review' | 'ci';
  readonly event: string;
  readonly payload: string;
  readonly then: (store: Store, id: number, advance: (ms: number) => void) => Promise<void>;
};

const answered = (output: string, session?: string) => async (store: Store, id: number, advance: (ms: number) => void) => {
  await store.webhooks.claimNextRun(3);
  if (session) await store.webhooks.setSession(id, session);
  advance(38_000);
  await store.webhooks.finishRun(id, output);
};

const SEEDS: readonly Seed[] = [
  {
    minutesAgo: 95,
    route: 'pr-review',
    event: 'pull_request',
    payload: pr(412, 'Retry the upload step with backoff'),
    then: async (store, id, advance) => {
      await answered('Looks good. The retry is bounded (5 tries) and the backoff doubles; one nit: log the last error before giving up.', 'sess-screenshot-webhook')(store, id, advance);
      advance(2_000);
      await store.webhooks.markDelivered(id, 1);
    },
  },
  {
    minutesAgo: 70,
    route: 'ci',
    event: 'push',
    payload: JSON.stringify({ ref: 'refs/heads/main', pusher: { name: 'dana' } }),
    then: async (store, id, advance) => {
      await answered('Three commits to main: the checkout page caches prices, a flaky test is fixed, and the README lists the new env vars.')(store, id, advance);
      await store.webhooks.markDelivered(id, 1);
    },
  },
  {
    minutesAgo: 41,
    route: 'pr-review',
    event: 'pull_request',
    payload: pr(415, 'Move the cart to the new pricing API'),
    then: async (store, id, advance) => {
      await answered('Two problems: the currency is dropped when the cart is empty, and the old endpoint is still called from checkout.ts.')(store, id, advance);
      advance(60_000);
      await store.webhooks.markDeliveryFailed(id, 5, 'gh: Resource not accessible by integration (HTTP 403) (after 5 attempts)');
    },
  },
  {
    minutesAgo: 18,
    route: 'pr-review',
    event: 'issue_comment',
    payload: JSON.stringify({ action: 'created', issue: { number: 415 }, comment: { body: 'thanks!' }, repository: { full_name: 'acme/shop' } }),
    then: async (store, id) => {
      await store.webhooks.skip(id, 'the comment is not a command');
    },
  },
  {
    minutesAgo: 1,
    route: 'pr-review',
    event: 'pull_request',
    payload: pr(418, 'Add a dark theme to the storefront'),
    then: async (store) => {
      await store.webhooks.claimNextRun(3);
    },
  },
];

export async function seedDeliveries(home: string, now: number): Promise<void> {
  let clock = now;
  const store = await openSqliteStore(join(home, 'state.db'), { now: () => clock });
  try {
    for (const [index, seed] of SEEDS.entries()) {
      clock = now - seed.minutesAgo * MINUTE;
      const accepted = await store.webhooks.accept(
        { route: seed.route, deliveryId: `screenshot-${index + 1}`, deduplicate: true, event: seed.event, payload: seed.payload, routeSnapshot: seed.route === 'ci' ? ciRoute : reviewRoute, receivedAt: clock },
        0,
      );
      if (accepted.status !== 'accepted') throw new Error(`screenshot event ${index + 1} was not accepted`);
      await seed.then(store, accepted.id, (ms) => (clock += ms));
    }
  } finally {
    await store.close();
  }
}
