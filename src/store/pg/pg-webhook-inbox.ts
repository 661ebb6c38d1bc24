// SCAFFOLD (replaced by the real module before this branch is merged).
import type { WebhookInbox } from '../webhook-types.js';
import type { PgContext } from './pg-context.js';

export function createPgWebhookInbox(_ctx: PgContext): WebhookInbox {
  return new Proxy({} as WebhookInbox, { get: (_t, name) => () => Promise.reject(new Error(`createPgWebhookInbox.${String(name)}: not built yet`)) });
}
