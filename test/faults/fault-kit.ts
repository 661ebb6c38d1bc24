// What the fault tests share: a home for a real gateway with one `deliver: log` route, a paced
// stream of signed webhooks, and reading back what the gateway answered in its log.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { postEvent, type HttpAnswer } from '../helpers/gateway.js';

export const SECRET = 'fault-suite-secret-0123456789';

export type HomeOptions = { readonly storeUrl?: string; readonly concurrency?: number; readonly extraYaml?: string };

/** A home whose gateway listens on a free port with the routes `plain` (deliver: log) and any extra ones. */
export async function writeFaultHome(home: string, options: HomeOptions = {}): Promise<void> {
  await mkdir(home, { recursive: true, mode: 0o700 });
  const store = options.storeUrl ? `store:\n  url: "${options.storeUrl}"\n` : '';
  await writeFile(
    join(home, 'config.yaml'),
    `model:\n  provider: openai\n  default: main-m\n${store}platforms:\n  webhook:\n    enabled: true\n    extra:\n      host: 127.0.0.1\n      port: 0\n      rate_limit: 1000000\n      concurrency: ${options.concurrency ?? 8}\n      metrics: true\n      routes:\n        plain:\n          secret: ${SECRET}\n          deliver: log\n${options.extraYaml ?? ''}`,
    { mode: 0o600 },
  );
}

export type Sent = { readonly delivery: string; readonly answer: HttpAnswer | Error; readonly ms: number };

/** `count` webhooks to `route` at `perSecond`, each its own delivery id; resolves with every answer. */
export async function paced(url: string, route: string, count: number, perSecond: number, prefix: string, timeoutMs = 10_000): Promise<Sent[]> {
  const sends: Promise<Sent>[] = [];
  const started = Date.now();
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / perSecond;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const delivery = `${prefix}-${i}`;
    const at = Date.now();
    sends.push(
      withTimeout(postEvent(url, route, { n: i, repository: { full_name: 'octo/faults' } }, { secret: SECRET, delivery }), timeoutMs).then(
        (answer) => ({ delivery, answer, ms: Date.now() - at }),
        (err: unknown) => ({ delivery, answer: err instanceof Error ? err : new Error(String(err)), ms: Date.now() - at }),
      ),
    );
  }
  return Promise.all(sends);
}

/** One webhook with this delivery id (a code host sending a refused event again). */
export async function sendOne(url: string, delivery: string, route = 'plain', payload: unknown = { again: true }, timeoutMs = 10_000): Promise<Sent> {
  const at = Date.now();
  try {
    return { delivery, answer: await withTimeout(postEvent(url, route, payload, { secret: SECRET, delivery }), timeoutMs), ms: Date.now() - at };
  } catch (err) {
    return { delivery, answer: err instanceof Error ? err : new Error(String(err)), ms: Date.now() - at };
  }
}

export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([work, new Promise<T>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)))]).finally(() => clearTimeout(timer));
}

export const statusOf = (sent: Sent): number | string => (sent.answer instanceof Error ? sent.answer.message : sent.answer.status);

/** delivery id → how many `webhook answer` lines gateway.log holds for it. */
export async function answerLines(home: string): Promise<Map<string, number>> {
  const text = await readFile(join(home, 'logs', 'gateway.log'), 'utf8').catch(() => '');
  const counts = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.includes('"webhook answer"')) continue;
    try {
      const parsed = JSON.parse(line) as { msg?: string; delivery_id?: string };
      if (parsed.msg === 'webhook answer' && parsed.delivery_id) counts.set(parsed.delivery_id, (counts.get(parsed.delivery_id) ?? 0) + 1);
    } catch {
      // A line cut by a full disk: not an answer.
    }
  }
  return counts;
}
