// `iris send`: one message into the platforms' outbox. With a gateway running, the gateway sends it
// (this waits up to --wait seconds to say how it went); without one, this process sends what is
// due on that platform now, once, and leaves a message that must be retried in the outbox for the
// gateway (the retries wait minutes, a command should not).
import { setTimeout as sleep } from 'node:timers/promises';
import { readGatewayStatus } from '../../gateway/pid-file.js';
import { drainPlatformOnce } from '../../platforms/outbox-drain.js';
import { createPlatformAdapter, isRunnablePlatform } from '../../platforms/registry.js';
import { chooseOperatorTarget, outboxOutcome as summarize, queueOperatorMessage } from '../../platforms/outbox-send.js';
import { parseSendTarget } from '../../platforms/send-target.js';
import type { OutboxRecord } from '../../store/platform-types.js';
import { openStoreAt } from '../../store/open-store.js';
import { createLogger } from '../../log/logger.js';
import { rotationOf } from '../../log/rotation.js';
import { printData, printError, printJson } from '../console.js';
import { cliStoreTarget } from '../store-target.js';
import { openConfig, openEnv, openHome } from '../context.js';
import { CliFailure, EXIT } from '../exit-codes.js';

type SendOptions = { to: string; wait: string; json?: boolean };

export async function sendCommand(text: string, options: SendOptions): Promise<number> {
  const parsed = parseSendTarget(options.to);
  if (!parsed.ok) throw new CliFailure('usage', parsed.error);
  const waitSeconds = Number(options.wait);
  if (!Number.isFinite(waitSeconds) || waitSeconds < 0 || waitSeconds > 600) throw new CliFailure('usage', '--wait: seconds from 0 to 600');
  if (text.trim() === '') throw new CliFailure('usage', 'the message is empty');
  const { platform } = parsed.target;
  if (!isRunnablePlatform(platform)) throw new CliFailure('usage', `${platform} is not available in this version of Iris`);
  const paths = await openHome();
  const env = await openEnv(paths);
  const { config } = await openConfig(paths);
  const chosen = chooseOperatorTarget(config, platform, parsed.target.chatId, parsed.target.threadId);
  if (!chosen.ok) {
    throw new CliFailure('usage', chosen.reason === 'not_enabled' ? `${platform} is not enabled: set platforms.${platform}.enabled to true (docs/platforms.md)` : `${platform} has no home_channel: give a chat (--to ${platform}:<chat_id>) or set platforms.${platform}.extra.home_channel`);
  }

  const store = await openStoreAt(await cliStoreTarget(paths, { env, config }));
  try {
    const { target } = chosen;
    const ids = await queueOperatorMessage(store.platforms, target, text);
    const gateway = await readGatewayStatus(paths);
    if (gateway.state === 'running') {
      const deadline = Date.now() + waitSeconds * 1000;
      let records = await Promise.all(ids.map((id) => store.platforms.getOutbox(id)));
      while (summarize(records as OutboxRecord[]) === 'queued' && Date.now() < deadline) {
        await sleep(100);
        records = await Promise.all(ids.map((id) => store.platforms.getOutbox(id)));
      }
      return report(records as OutboxRecord[], target, options, `the gateway (pid ${gateway.pid})`);
    }
    const log = createLogger(paths, 'gateway', { level: env.IRIS_LOG_LEVEL?.trim() || 'info', rotation: rotationOf(config.logging) });
    const adapter = await createPlatformAdapter(platform, { config, env, log });
    await drainPlatformOnce({ store, adapters: new Map([[platform, adapter]]), log }, platform, adapter, AbortSignal.timeout(60_000));
    await adapter.stop();
    log.flush?.();
    const records = await Promise.all(ids.map((id) => store.platforms.getOutbox(id)));
    return report(records as OutboxRecord[], target, options, 'this command (no gateway is running)');
  } finally {
    await store.close();
  }
}

function report(records: readonly OutboxRecord[], target: { chatId: string; threadId: string | null; platform: string }, options: SendOptions, sender: string): number {
  const state = summarize(records);
  const where = `${target.platform}:${target.chatId}${target.threadId ? `:${target.threadId}` : ''}`;
  const problem = records.find((r) => r.lastError)?.lastError ?? null;
  if (options.json) {
    printJson({ state, platform: target.platform, chat_id: target.chatId, thread_id: target.threadId, parts: records.length, ids: records.map((r) => r.id), error: state === 'sent' ? null : problem });
  } else if (state === 'sent') {
    printData(`sent to ${where} by ${sender}${records.length > 1 ? ` (${records.length} parts)` : ''}`);
  } else if (state === 'failed') {
    printError(`not sent to ${where}: ${problem ?? 'unknown error'}`);
  } else {
    printData(`queued for ${where}${problem ? ` (not sent yet: ${problem})` : ''}; the gateway sends it${sender.startsWith('this') ? ' when it runs (iris gateway start)' : ''}`);
  }
  return state === 'failed' ? EXIT.failure : EXIT.ok;
}
