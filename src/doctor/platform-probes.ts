// The doctor's live probe of each enabled chat platform: the adapter's own check() (getMe, the
// signal-cli daemon's /api/v1/check, the Twilio account), with a deadline so that a service that
// never answers cannot hold the doctor. The adapter is built as the gateway builds it, with a log
// that writes nothing: the doctor reads only.
import type { Env } from '../config/home.js';
import type { Config } from '../config/schema.js';
import { errorMessage } from '../domain/error-message.js';
import type { PlatformName } from '../domain/platforms.js';
import { createPlatformAdapter } from '../platforms/registry.js';
import type { PlatformCheck, PlatformLog } from '../platforms/types.js';
import { PLATFORM_PROBE_TIMEOUT_MS } from './checks/platforms.js';

const SILENT: PlatformLog = { debug() {}, info() {}, warn() {}, error() {} };

export async function probePlatform(name: PlatformName, config: Readonly<Config>, env: Env, timeoutMs = PLATFORM_PROBE_TIMEOUT_MS): Promise<PlatformCheck> {
  const seconds = Math.round(timeoutMs / 1000);
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<PlatformCheck>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ ok: false, reason: `no answer within ${seconds} s`, cause: 'unreachable' });
    }, timeoutMs);
  });
  try {
    const checked = createPlatformAdapter(name, { config, env, log: SILENT })
      .then((adapter) => adapter.check(controller.signal))
      .catch((err: unknown): PlatformCheck => ({ ok: false, reason: errorMessage(err) }));
    return await Promise.race([checked, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
