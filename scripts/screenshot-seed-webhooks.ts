// The Webhooks page's screenshot data: the webhook platform on in config.yaml with one static
// route (`ci`, a push summary written to the log, filtered to main), and two subscriptions in
// webhook_subscriptions.json as `iris webhook subscribe` writes them (`pr-review`, commenting on
// pull requests, and `release-notes`, off). The Deliveries seed's events for `ci` and `pr-review`
// become their last deliveries. Secrets are made up here and never shown by the page.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { serializeSubscriptions, SUBSCRIPTIONS_FILE } from '../src/webhook/subscriptions.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const WEBHOOK = {
  enabled: true,
  extra: {
    host: '127.0.0.1',
    port: 8644,
    routes: {
      ci: {
        secret: 'screenshot-ci-secret-0123456789abcdef',
        events: ['push'],
        filters: [{ field: 'ref', in: ['refs/heads/main'] }],
        prompt: 'Summarise the push to {ref} by {pusher.name}',
        deliver: 'log',
      },
    },
  },
};

const route = (over: Record<string, unknown>) => ({
  enabled: true,
  events: [],
  filters: [],
  skills: [],
  toolsets: [],
  deliver: 'log',
  deliver_extra: {},
  session: 'per_event',
  commands: false,
  coalesce_seconds: 30,
  ...over,
});

export async function seedWebhooks(home: string, now: number): Promise<void> {
  // Edited as a YAML document, so whatever other seeds wrote to config.yaml stays.
  const path = join(home, 'config.yaml');
  const doc = parseDocument(await readFile(path, 'utf8'));
  doc.setIn(['platforms', 'webhook'], doc.createNode(WEBHOOK));
  await writeFile(path, doc.toString(), { mode: 0o600 });

  const subscriptions = {
    'pr-review': route({
      events: ['pull_request', 'issue_comment'],
      prompt: 'Review PR #{number} in {repository.full_name}: {pull_request.title}',
      deliver: 'forge_comment',
      deliver_extra: { repo: '{repository.full_name}', pr_number: '{number}' },
      secret: 'screenshot-review-secret-0123456789abcdef',
      created_at: new Date(now - 12 * DAY).toISOString(),
    }),
    'release-notes': route({
      enabled: false,
      events: ['release'],
      prompt: 'Draft release notes for {release.tag_name}',
      secret: 'screenshot-release-secret-0123456789abcdef',
      created_at: new Date(now - 3 * DAY).toISOString(),
    }),
  };
  await writeFile(join(home, SUBSCRIPTIONS_FILE), serializeSubscriptions(subscriptions), { mode: 0o600 });
}
