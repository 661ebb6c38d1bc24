// The Platforms page's API: each chat platform's settings (secrets only as set / not set), its
// connection as the running gateway reported it (the view `iris gateway status` reads), pairing
// (the calls `iris pairing list|approve|revoke` make), and a test message queued in the outbox the
// way `iris send` queues one. Writes are audited.
import type { PlatformName } from '../../domain/platforms.js';
import { readGatewayView } from '../../gateway/status-view.js';
import { redactText } from '../../log/redact.js';
import { chooseOperatorTarget, outboxOutcome, queueOperatorMessage } from '../../platforms/outbox-send.js';
import { approvePairingCode, listPairing, parsePlatformName, revokePairedUser } from '../../platforms/pairing-admin.js';
import { allPlatformSecrets, platformsDocument, scrub } from '../../platforms/platform-view.js';
import { HttpError } from '../http-error.js';
import { parseApproveBody, parseRevokeBody, parseTestBody } from '../platforms-requests.js';
import type { DashboardContext, RouteArea, RouteRequest } from './route.js';

/** What the Test button sends: says where it came from, so nobody in the chat wonders. */
export const TEST_MESSAGE = 'Test message from the Iris dashboard: this chat receives what Iris sends here.';

function platformOf(request: RouteRequest): PlatformName {
  const parsed = parsePlatformName(request.params.name ?? '');
  if (!parsed.ok) throw new HttpError(400, parsed.error.replace(/^unknown platform "[^"]*"/, `unknown platform "${(request.params.name ?? '').slice(0, 40)}"`));
  return parsed.platform;
}

async function readBody<T>(context: DashboardContext, request: RouteRequest, parse: (data: unknown) => { ok: true; value: T } | { ok: false; error: string }): Promise<T> {
  const parsed = parse(await context.readJson(request.req));
  if (!parsed.ok) throw new HttpError(400, parsed.error);
  return parsed.value;
}

export const platformRoutes: RouteArea = (context) => [
  {
    method: 'GET',
    path: '/api/platforms',
    run: async () => {
      const [config, env, store] = await Promise.all([context.currentConfig(), context.currentEnv(), context.existingStore()]);
      const now = Date.now();
      const [view, pairing] = await Promise.all([readGatewayView(context.paths, config), listPairing(store?.platforms, now)]);
      return platformsDocument({
        config,
        env,
        gateway: { running: view.status.state === 'running', pid: view.status.state === 'running' ? view.status.pid : null, platforms: view.platforms },
        pending: pairing.pending,
        approved: pairing.approved,
        now,
      });
    },
  },
  {
    method: 'POST',
    path: '/api/platforms/:name/pairing/approve',
    run: (request) => {
      let target = request.params.name ?? '';
      return context.audited(request, 'pairing.approve', () => target, async () => {
        const platform = platformOf(request);
        const code = await readBody(context, request, parseApproveBody);
        target = `${platform}:${code.toUpperCase()}`;
        const outcome = await approvePairingCode((await context.existingStore())?.platforms, platform, code, Date.now());
        if (!outcome.ok) throw new HttpError(404, outcome.error);
        target = `${platform}:${outcome.user.userId}`;
        const { user } = outcome;
        return { platform, user_id: user.userId, user_name: user.userName, approved_at: new Date(user.approvedAt).toISOString() };
      });
    },
  },
  {
    method: 'POST',
    path: '/api/platforms/:name/pairing/revoke',
    run: (request) => {
      let target = request.params.name ?? '';
      return context.audited(request, 'pairing.revoke', () => target, async () => {
        const platform = platformOf(request);
        const user = await readBody(context, request, parseRevokeBody);
        target = `${platform}:${user}`;
        const outcome = await revokePairedUser((await context.existingStore())?.platforms, platform, user);
        if (!outcome.ok) throw new HttpError(404, outcome.error);
        return { platform, user_id: user, revoked: true };
      });
    },
  },
  {
    method: 'POST',
    path: '/api/platforms/:name/test',
    run: (request) => {
      let target = request.params.name ?? '';
      return context.audited(request, 'platform.test', () => target, async () => {
        const platform = platformOf(request);
        const chat = await readBody(context, request, parseTestBody);
        const chosen = chooseOperatorTarget(await context.currentConfig(), platform, chat, null);
        if (!chosen.ok) {
          throw new HttpError(
            409,
            chosen.reason === 'not_enabled'
              ? `${platform} is not enabled: iris config set platforms.${platform}.enabled true`
              : `${platform} has no home channel: give a chat id, send /sethome in the chat, or iris config set platforms.${platform}.extra.home_channel <chat id>`,
          );
        }
        const { target: where } = chosen;
        target = `${platform}:${where.chatId}`;
        const ids = await queueOperatorMessage((await context.store()).platforms, where, TEST_MESSAGE);
        return { id: ids[0], ids, platform, chat_id: where.chatId, state: 'queued' };
      });
    },
  },
  {
    method: 'GET',
    path: '/api/platforms/:name/outbox/:id',
    run: async (request) => {
      const platform = platformOf(request);
      const id = Number(request.params.id);
      if (!Number.isSafeInteger(id) || id <= 0) throw new HttpError(400, 'the outbox id must be a positive whole number');
      const record = await (await context.existingStore())?.platforms.getOutbox(id);
      if (!record || record.platform !== platform) throw new HttpError(404, `no outbox message ${id} on ${platform}`);
      const secrets = allPlatformSecrets(await context.currentConfig(), await context.currentEnv());
      return {
        id,
        platform,
        chat_id: record.chatId,
        state: outboxOutcome([record]),
        attempts: record.attempts,
        last_error: record.lastError === null ? null : scrub(redactText(record.lastError), secrets),
      };
    },
  },
];
