// The cost of GET /metrics being on (npm run bench:webhook -- --metrics): two gateways, the same
// config but for `metrics`, take the same load in alternating phases (off, on, on, off, …), and the
// throughput ratio on/off is taken per round (adjacent phases), then its median. While the
// metrics-on gateway takes load it is also scraped every few seconds, as Prometheus would, so
// the scrape's own cost is counted. Target: the ratio ≥ 0.97 (under 3% of ingest throughput).
import { setTimeout as sleep } from 'node:timers/promises';
import { closedLoop, type LoadResult } from './load.js';
import type { SignedDelivery } from './payload.js';
import { cpuTicks, type Server } from './processes.js';
import * as report from './report.js';
import type { Phase } from './report.js';

export const METRICS_TARGET_RATIO = 0.97;

export type MetricsCostOptions = {
  readonly off: Server;
  readonly on: Server;
  readonly routePath: string;
  readonly delivery: SignedDelivery;
  readonly connections: number;
  readonly seconds: number;
  readonly rounds: number;
  readonly warmupSeconds: number;
  readonly scrapeEveryMs: number;
  readonly ticksPerSecond: number;
  readonly say: (line: string) => void;
  readonly check: (name: string, load: LoadResult) => void;
  readonly problem: (text: string) => void;
};

/** GET /metrics; the body's size, or the failure as a problem. */
async function scrapeOnce(origin: string): Promise<{ ok: true; text: string } | { ok: false; error: string }> {
  try {
    const res = await fetch(`${origin}/metrics`);
    const text = await res.text();
    return res.status === 200 ? { ok: true, text } : { ok: false, error: `GET /metrics answered ${res.status}` };
  } catch (err) {
    return { ok: false, error: `GET /metrics failed: ${(err as Error).message}` };
  }
}

export async function metricsCost(o: MetricsCostOptions): Promise<void> {
  let scrapes = 0;
  let scrapeProblem: string | undefined;

  async function phase(which: 'off' | 'on'): Promise<Phase> {
    const server = which === 'on' ? o.on : o.off;
    const stop = new AbortController();
    // Scrapes run beside the load (only on the metrics-on gateway), first one a second in.
    const scraping =
      which === 'on'
        ? (async () => {
            await sleep(1000, undefined, { signal: stop.signal }).catch(() => undefined);
            while (!stop.signal.aborted) {
              const scraped = await scrapeOnce(server.origin);
              if (scraped.ok) scrapes++;
              else scrapeProblem ??= scraped.error;
              await sleep(o.scrapeEveryMs, undefined, { signal: stop.signal }).catch(() => undefined);
            }
          })()
        : Promise.resolve();
    let ticksBefore = 0;
    const load = await closedLoop(server.origin, o.routePath, o.delivery, o.connections, o.seconds, () => {
      ticksBefore = cpuTicks(server.pid);
    });
    const serverCpuMs = ((cpuTicks(server.pid) - ticksBefore) * 1000) / o.ticksPerSecond;
    stop.abort();
    await scraping;
    o.check(`metrics ${which}`, load);
    return { server: 'gateway', connections: o.connections, load, serverCpuMs, backgroundDeltasPerS: 0 };
  }

  if (o.warmupSeconds > 0) {
    o.say(`  warm-up: ${o.warmupSeconds} s each at ${o.connections} connections (not counted)`);
    o.check('metrics off, warm-up', await closedLoop(o.off.origin, o.routePath, o.delivery, o.connections, o.warmupSeconds));
    o.check('metrics on, warm-up', await closedLoop(o.on.origin, o.routePath, o.delivery, o.connections, o.warmupSeconds));
  }

  const off: Phase[] = [];
  const on: Phase[] = [];
  for (let round = 0; round < o.rounds; round++) {
    // ABBA: the order within a pair flips every round, so a drift favours neither side.
    const order = round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
    for (const which of order) (which === 'on' ? on : off).push(await phase(which));
    const f = { off: report.figures(off[round]!), on: report.figures(on[round]!) };
    o.say(
      `  round ${String(round + 1).padStart(2)}/${o.rounds} (${order.join(', ')}):  off ${report.int(f.off.acceptedPerS).padStart(6)}/s  on ${report.int(f.on.acceptedPerS).padStart(6)}/s` +
        `  ratio ${(f.on.acceptedPerS / f.off.acceptedPerS).toFixed(3)}   cpu/req off ${report.ms(f.off.cpuMsPerRequest, 3)} on ${report.ms(f.on.cpuMsPerRequest, 3)} ms` +
        `   p50 off ${report.ms(f.off.p50)} on ${report.ms(f.on.p50)} ms`,
    );
  }

  const ratios = on.map((p, i) => report.figures(p).acceptedPerS / report.figures(off[i]!).acceptedPerS);
  const cpuRatios = on.map((p, i) => report.figures(p).cpuMsPerRequest / report.figures(off[i]!).cpuMsPerRequest);
  const ratio = report.median(ratios);
  const offFigures = report.medianFigures(off.map(report.figures));
  const onFigures = report.medianFigures(on.map(report.figures));
  const last = await scrapeOnce(o.on.origin);
  o.say('');
  o.say(`summary: medians over ${o.rounds} rounds; ratios taken per round (adjacent phases), then their median`);
  o.say(report.tableHeader());
  o.say(report.tableRow(`${o.connections} conn, idle`, 'off', offFigures));
  o.say(report.tableRow('', 'on', onFigures));
  o.say(`  scrapes during the on phases: ${scrapes} (one every ${o.scrapeEveryMs / 1000} s), ${last.ok ? `${report.int(last.text.length)} bytes each` : 'the last failed'}`);
  if (last.ok) {
    const accepted = /^iris_webhook_requests_total\{route="[^"]+",status="202"\} (\d+)$/m.exec(last.text);
    o.say(`  the on gateway counted ${accepted ? report.int(Number(accepted[1])) : 'no'} accepted requests (iris_webhook_requests_total, 202)`);
    if (!accepted) o.problem('the metrics-on gateway did not count its requests');
  }
  if (scrapeProblem) o.problem(scrapeProblem);
  if (!last.ok) o.problem(last.error);
  o.say(`  CPU per request on/off: ${report.median(cpuRatios).toFixed(3)}× (median; rounds: ${cpuRatios.map((r) => r.toFixed(3)).join(', ')})`);
  o.say('');
  o.say('target');
  o.say(
    `  metrics on ≥ ${METRICS_TARGET_RATIO}× metrics off accepted/s (cost < 3%)  ${`${ratio.toFixed(3)}×`.padStart(8)}  ${ratio >= METRICS_TARGET_RATIO ? 'PASS' : 'MISSED'}` +
      `  (rounds: ${ratios.map((r) => r.toFixed(3)).join(', ')})`,
  );
}
