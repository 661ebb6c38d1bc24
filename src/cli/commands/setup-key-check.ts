// What `iris setup --api-key-stdin` says of the key it stored: GET <endpoint>/models with it, as
// the wizard's endpoint probes and `iris doctor` do. The key is stored whatever the answer; a
// failed check says how to fix it.
import type { HomePaths } from '../../config/home.js';
import { listModels } from '../../providers/list-models.js';
import { mainRoute } from '../../routing/resolve.js';
import { openConfig, openEnv } from '../context.js';
import { whileWaiting } from '../spinner.js';

/** As long as the doctor's probe waits. */
const KEY_CHECK_TIMEOUT_MS = 5_000;

export type KeyCheck = { readonly ok: boolean; readonly detail: string };

export async function checkStoredKey(paths: HomePaths): Promise<KeyCheck | undefined> {
  const env = await openEnv(paths);
  const { config } = await openConfig(paths);
  const route = mainRoute(config);
  if (!route) return undefined;
  const result = await whileWaiting(process.stderr, 'checking the key (GET /models)', () => listModels(route, { env, timeoutMs: KEY_CHECK_TIMEOUT_MS }));
  if (result.ok) return { ok: true, detail: `${result.ids.length} model${result.ids.length === 1 ? '' : 's'} listed at ${result.url}` };
  const where = result.url && !result.message.includes(result.url) ? `GET ${result.url}: ` : '';
  return { ok: false, detail: `${where}${result.message}` };
}

/** The line setup prints. Pure. */
export function keyCheckText(check: KeyCheck): string {
  return check.ok ? `key check: ok, ${check.detail}` : `key check: failed, ${check.detail}; the key is stored: fix it with iris setup, and iris doctor checks again`;
}
