// Webhook ingest benchmark: how many signed deliveries a second the gateway takes in (HMAC,
// event and filters, dedup, rate limit, the durable inbox write, the 202), against a bare node:http
// server in the same run that only reads the body, checks the HMAC, parses the JSON and dedups in a
// Map. Both run as child processes; the load (a ~8 KB GitHub pull_request "opened" payload, a new
// delivery id per request) comes from this process. Bare and gateway phases alternate round by
// round, so the shared machine's noise hits both alike; results are medians and ratios.
//
//   npm run bench:webhook -- [--seconds N] [--rounds N] [--connections N] [--warmup S] [--rate-limit N]
//                            [--pace-ms N] [--iris PATH] [--profile DIR] [--gateway-node-flags "FLAGS"]
//                            [--soak MINUTES [--soak-rate N]] [--metrics [--scrape-every S]]
//
// --iris PATH benchmarks another build of the executable (default bin/iris, which runs dist/);
// --profile DIR writes a --cpu-prof of the gateway process there when it stops (and of the durable
// floor in DIR/floor);
// --gateway-node-flags passes other node flags to it (e.g. "--perf-basic-prof" for perf).
//
// Targets: gateway ≥ 0.7× bare in accepted/s at 64 connections, every accept fsync'd before its
// 202; p50 < 1 ms with one connection; 0.6× while 4 agent runs stream; over a sustained run
// (--soak 5): memory flat, the WAL ≤ 64 MB and state.db ≤ 1.5× the size of the events it keeps.
// --metrics compares the gateway with GET /metrics off and on instead (no bare server): alternating
// phases, at least 5 rounds, scraped every --scrape-every seconds (5) while on; target ≥ 0.97×.
// Exits 0 whatever the numbers; 1 when something broke (a server did not start, an answer that
// was not 2xx, the background runs not in the state a phase needs).
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './bench-args.js';
import { closedLoop, openLoop, type LoadResult } from './webhook-ingest/load.js';
import { GATEWAY_MODEL, SINK_MODEL, startPacedUpstream, type PacedUpstream } from './webhook-ingest/paced-upstream.js';
import { signedPullRequest } from './webhook-ingest/payload.js';
import { clockTicksPerSecond, cpuTicks, rssKb, startHelper, startServer, type Server } from './webhook-ingest/processes.js';
import { metricsCost } from './webhook-ingest/metrics-cost.js';
import * as report from './webhook-ingest/report.js';
import type { Phase } from './webhook-ingest/report.js';

const args = process.argv.slice(2);
const { number: option, string: stringOption } = benchArgs(args);
const metricsMode = args.includes('--metrics');
const seconds = option('--seconds', 10, 1);
const rounds = Math.round(option('--rounds', metricsMode ? 6 : 3, metricsMode ? 5 : 1));
const scrapeEverySeconds = option('--scrape-every', 5, 0.1);
const connections = Math.round(option('--connections', 64, 1));
const warmupSeconds = option('--warmup', 2, 0);
// Out of the way for any run here (the window is 60 s). Not 100,000,000: the limiter keeps one slot
// per allowed request, allocated up front, and a ring that size costs gigabytes and a stall of
// most of a minute on the first event.
const rateLimit = Math.round(option('--rate-limit', 2_000_000, 1));
const paceMs = option('--pace-ms', 10, 1);
const soakMinutes = args.includes('--soak') ? option('--soak', 10, 0.1) : 0;
const soakRate = option('--soak-rate', 200, 1);
const profileDir = stringOption('--profile');
const gatewayNodeFlags = (stringOption('--gateway-node-flags') ?? '').split(/\s+/).filter((flag) => flag !== '');

const CONCURRENCY = 4;
const SECRET = 'bench-webhook-secret-7f3a9c21d4e8';
const ROUTE_PATH = '/webhooks/pr';
// run-ts.mjs sets argv[1] to this file; the bundle itself lives elsewhere.
const benchDir = dirname(resolve(process.argv[1]!));
const irisBin = resolve(stringOption('--iris') ?? join(benchDir, '..', 'bin', 'iris'));
const helpers = join(benchDir, 'webhook-ingest');
const ticksPerSecond = clockTicksPerSecond();
const delivery = signedPullRequest(SECRET);

// --- clean-up, also on Ctrl-C ---------------------------------------------------------------
const cleanups: Array<() => unknown> = [];
let cleaning: Promise<void> | undefined;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const step of cleanups.reverse()) {
      try {
        await step();
      } catch {
        // best effort: the rest still runs
      }
    }
  })();
  return cleaning;
}
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  process.on(signal, () => {
    if (cleaning) process.exit(code);
    process.stderr.write(`\nbench: ${signal}, cleaning up\n`);
    void cleanup().finally(() => {
      // run-ts.mjs removes its bundle only on a normal return; do it here too.
      const bundleDir = dirname(fileURLToPath(import.meta.url));
      if (bundleDir.includes(`${join('.cache', 'iris-run-ts')}`)) rmSync(bundleDir, { recursive: true, force: true });
      process.exit(code);
    });
  });
}

const problems: string[] = [];
const say = (line: string) => process.stdout.write(`${line}\n`);

async function until(what: string, check: () => boolean, timeoutMs = 20_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) {
      problems.push(`${what} did not happen within ${timeoutMs / 1000} s`);
      say(`    ! ${what} did not happen within ${timeoutMs / 1000} s`);
      return false;
    }
    await sleep(20);
  }
  return true;
}

function gatewayConfig(metrics: boolean): string {
  const q = JSON.stringify;
  return `# webhook-ingest benchmark (temporary)
model:
  provider: openai
  default: ${GATEWAY_MODEL}
network:
  first_byte_timeout: 3600
  idle_timeout: 3600
platforms:
  webhook:
    enabled: true
    extra:
      host: 127.0.0.1
      port: 0
      secret: ${q(SECRET)}
      rate_limit: ${rateLimit}
      concurrency: ${CONCURRENCY}
      metrics: ${metrics}
      routes:
        pr:
          events: [pull_request]
          filters:
            - field: action
              in: [opened, synchronize]
          prompt: ${q('Review pull request #{pull_request.number} "{pull_request.title}" in {repository.full_name} by {pull_request.user.login}.\n\n{pull_request.body}')}
          deliver: log
`;
}

async function startGateway(upstream: PacedUpstream, metrics = false): Promise<{ gateway: Server; home: string }> {
  const home = mkdtempSync(join(tmpdir(), 'iris-bench-webhook-'));
  chmodSync(home, 0o700);
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  writeFileSync(join(home, 'config.yaml'), gatewayConfig(metrics), { mode: 0o600 });
  const env = { ...process.env, IRIS_HOME: home, OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${upstream.url}/v1` };
  const nodeArgs = [...gatewayNodeFlags, ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${resolve(profileDir)}`] : [])];
  if (profileDir) mkdirSync(resolve(profileDir), { recursive: true });
  const gateway = await startServer(metrics ? 'gateway (metrics on)' : 'gateway', [...nodeArgs, irisBin, 'gateway', 'run'], env, /gateway listening on \S+:(\d+)/);
  cleanups.push(() => gateway.stop());
  return { gateway, home };
}

/** The durable floor (durable-floor-server.mjs): the bare server's work plus an append + fdatasync before each 202. */
async function startFloor(): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), 'iris-bench-floor-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  // Profiled beside the gateway, so the two profiles can be read against each other.
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(resolve(profileDir), 'floor')}`] : [];
  const floor = await startServer('durable floor', [...profile, join(helpers, 'durable-floor-server.mjs'), SECRET, join(dir, 'accepted.log')], process.env, /listening (\d+)/);
  cleanups.push(() => floor.stop());
  return floor;
}

async function startBare(): Promise<Server> {
  const bare = await startServer('bare server', [join(helpers, 'bare-server.mjs'), SECRET], process.env, /listening (\d+)/);
  cleanups.push(() => bare.stop());
  return bare;
}

function checkAnswers(name: string, load: LoadResult): void {
  const bad = [...load.statuses.keys()].filter((status) => status < 200 || status > 299);
  if (bad.length > 0 || load.errors > 0) {
    problems.push(`${name}: ${report.statusSummary(load)}; first: ${load.firstProblem ?? '?'}`);
  }
}

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
const megabytes = (kb: number | undefined) => (kb === undefined ? '?' : `${(kb / 1024).toFixed(1)} MB`);

const fileSize = (path: string): number => {
  try {
    return statSync(path).size;
  } catch {
    return 0; // not there (yet)
  }
};

/** The bytes the inbox keeps: every stored event's columns and its dedup record, as SQLite counts them. */
async function retainedBytes(home: string): Promise<{ events: number; bytes: number }> {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(join(home, 'state.db'), { readonly: true, fileMustExist: true });
  try {
    const events = db
      .prepare<[], { n: number; bytes: number | null }>(
        `SELECT count(*) AS n, sum(length(CAST(payload AS BLOB)) + length(CAST(route_snapshot AS BLOB)) + length(CAST(route AS BLOB))
           + length(CAST(delivery_id AS BLOB)) + length(CAST(event AS BLOB)) + coalesce(length(CAST(output AS BLOB)), 0) + 48) AS bytes
         FROM webhook_events`,
      )
      .get()!;
    const dedup = db.prepare<[], { bytes: number | null }>('SELECT sum(length(CAST(route AS BLOB)) + length(CAST(delivery_id AS BLOB)) + 8) AS bytes FROM webhook_dedup').get()!;
    return { events: events.n, bytes: (events.bytes ?? 0) + (dedup.bytes ?? 0) };
  } finally {
    db.close();
  }
}

function inboxSize(home: string): string {
  let bytes = 0;
  for (const name of ['state.db', 'state.db-wal']) {
    try {
      bytes += statSync(join(home, name)).size;
    } catch {
      // not there (yet)
    }
  }
  return `${(bytes / 1048576).toFixed(0)} MB`;
}

// --- the comparison --------------------------------------------------------------------------
type PairKey = 'idle' | 'one' | 'stream';
const ALL_PAIRS: ReadonlyArray<{ key: PairKey; label: string; connections: number; streams: boolean }> = [
  { key: 'idle', label: `${connections} conn, idle`, connections, streams: false },
  { key: 'one', label: '1 conn, idle', connections: 1, streams: false },
  { key: 'stream', label: `${connections} conn, 4 runs stream`, connections, streams: true },
];
// --pairs idle,one,stream (all by default): a shorter run while working on one of them.
const chosenPairs = (stringOption('--pairs') ?? 'idle,one,stream').split(',');
const unknownPair = chosenPairs.find((key) => !ALL_PAIRS.some((pair) => pair.key === key));
if (unknownPair !== undefined) {
  process.stderr.write(`bench: --pairs takes a comma-separated list of idle, one and stream (not ${JSON.stringify(unknownPair)})\n`);
  process.exit(2);
}
const PAIRS = ALL_PAIRS.filter((pair) => chosenPairs.includes(pair.key));

async function comparison(upstream: PacedUpstream, bare: Server, floor: Server, gateway: Server, home: string): Promise<void> {
  const hung = () => until(`${CONCURRENCY} gateway runs waiting on the hanging model`, () => upstream.open('gateway', 'hang') >= CONCURRENCY);

  async function phase(server: Server, which: Phase['server'], pair: (typeof PAIRS)[number]): Promise<Phase> {
    let sink: ReturnType<typeof startHelper> | undefined;
    if (which === 'gateway' && pair.streams) {
      upstream.setGatewayMode('stream');
      await until(`${CONCURRENCY} gateway runs streaming`, () => upstream.open('gateway', 'stream', 2) >= CONCURRENCY);
    } else if (which === 'gateway') {
      await hung();
    } else if (pair.streams) {
      sink = startHelper([join(helpers, 'stream-sink.mjs'), upstream.url, String(CONCURRENCY), SINK_MODEL]);
      cleanups.push(() => sink?.stop());
      await until(`${CONCURRENCY} stand-in streams`, () => upstream.open('sink', 'stream', 2) >= CONCURRENCY);
    }
    const streamer = which === 'gateway' ? 'gateway' : 'sink';
    let framesBefore = 0;
    let ticksBefore = 0;
    const load = await closedLoop(server.origin, ROUTE_PATH, delivery, pair.connections, seconds, () => {
      framesBefore = upstream.framesSent(streamer);
      ticksBefore = cpuTicks(server.pid);
    });
    const serverCpuMs = ((cpuTicks(server.pid) - ticksBefore) * 1000) / ticksPerSecond;
    const frames = upstream.framesSent(streamer) - framesBefore;
    if (which === 'gateway' && pair.streams) upstream.setGatewayMode('hang');
    if (sink) {
      await sink.stop();
      upstream.cutSink();
    }
    checkAnswers(`${which}, ${pair.label}`, load);
    return { server: which, connections: pair.connections, load, serverCpuMs, backgroundDeltasPerS: pair.streams ? frames / (load.elapsedMs / 1000) : 0 };
  }

  if (warmupSeconds > 0) {
    say(`  warm-up: ${warmupSeconds} s each at ${connections} connections (not counted)`);
    checkAnswers('bare, warm-up', await closedLoop(bare.origin, ROUTE_PATH, delivery, connections, warmupSeconds));
    checkAnswers('durable floor, warm-up', await closedLoop(floor.origin, ROUTE_PATH, delivery, connections, warmupSeconds));
    checkAnswers('gateway, warm-up', await closedLoop(gateway.origin, ROUTE_PATH, delivery, connections, warmupSeconds));
  } else {
    checkAnswers('gateway, first events', await closedLoop(gateway.origin, ROUTE_PATH, delivery, 1, 0.2));
  }
  await hung();
  const rssStart = rssKb(gateway.pid);
  // The WAL under full load: its peak, sampled four times a second.
  let walPeak = 0;
  const walWatch = setInterval(() => (walPeak = Math.max(walPeak, fileSize(join(home, 'state.db-wal')))), 250);

  const results = new Map<PairKey, { bare: Phase[]; floor: Phase[]; gateway: Phase[] }>(PAIRS.map((p) => [p.key, { bare: [], floor: [], gateway: [] }]));
  const servers = { bare, floor, gateway };
  for (let round = 0; round < rounds; round++) {
    say(`  round ${round + 1}/${rounds}`);
    for (const pair of PAIRS) {
      // ABBA: the order within a pair flips every round, so a drift favours neither side. The
      // durable floor is measured in the idle pair only, between the two.
      const sides: ReadonlyArray<Phase['server']> = pair.key === 'idle' ? ['bare', 'floor', 'gateway'] : ['bare', 'gateway'];
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      for (const which of order) {
        const measured = await phase(servers[which], which, pair);
        results.get(pair.key)![which].push(measured);
        say(report.phaseLine(`${pair.label}, ${which}`, measured));
      }
    }
  }
  const rssEnd = rssKb(gateway.pid);
  clearInterval(walWatch);

  say('');
  say(`summary: medians over ${rounds} round${rounds === 1 ? '' : 's'}; the throughput ratio is taken per round (adjacent phases), then its median`);
  say(report.tableHeader());
  const perRound = new Map<PairKey, number[]>();
  const medians = new Map<PairKey, { bare: report.Figures; gateway: report.Figures }>();
  for (const pair of PAIRS) {
    const { bare: b, gateway: g } = results.get(pair.key)!;
    const bareFigures = report.medianFigures(b.map(report.figures));
    const gatewayFigures = report.medianFigures(g.map(report.figures));
    const roundRatios = g.map((phase, i) => report.figures(phase).acceptedPerS / report.figures(b[i]!).acceptedPerS);
    perRound.set(pair.key, roundRatios);
    medians.set(pair.key, { bare: bareFigures, gateway: gatewayFigures });
    say(report.tableRow(pair.label, 'bare', bareFigures));
    say(report.tableRow('', 'gateway', gatewayFigures));
    say(report.ratioRow(report.median(roundRatios), bareFigures, gatewayFigures));
  }
  const idle = results.get('idle')!;
  const idleMedians = medians.get('idle');
  let floorCheck: { throughput: number[]; cpu: number[] } | undefined;
  if (idleMedians) {
    // The durable floor, the anchor of the targets: the gateway against it round by round.
    const floorFigures = report.medianFigures(idle.floor.map(report.figures));
    say(report.tableRow(`${PAIRS[0]!.label}`, 'floor', floorFigures));
    say(report.ratioRow(report.median(idle.floor.map((phase, i) => report.figures(phase).acceptedPerS / report.figures(idle.bare[i]!).acceptedPerS)), idleMedians.bare, floorFigures));
    say(`  ${''.padEnd(22)} ${'gw/floor'.padEnd(8)}${report.ratioCells(idle.gateway.map(report.figures), idle.floor.map(report.figures))}`);
    say('  floor: the same work as bare, plus each body appended to a file and fdatasync\'d (group commit on a thread) before its 202');
    floorCheck = report.floorRatios(idle.gateway.map(report.figures), idle.floor.map(report.figures));
  }
  const stream = medians.get('stream');
  if (stream) {
    say(`  background in the streaming phases: gateway runs ${report.int(stream.gateway.backgroundDeltasPerS)} deltas/s, stand-in ${report.int(stream.bare.backgroundDeltasPerS)} deltas/s (median)`);
  }
  say(`  gateway RSS ${megabytes(rssStart)} after warm-up, ${megabytes(rssEnd)} at the end; inbox on disk ${inboxSize(home)}`);
  say(`  WAL ≤ 64 MB under full load: peak ${mb(walPeak)}, at the end ${mb(fileSize(join(home, 'state.db-wal')))}  ${report.verdict(walPeak <= 64 * 1048576)}`);

  const spread = (values: readonly number[]) => (values.length > 1 ? `  (rounds: ${values.map((r) => r.toFixed(2)).join(', ')})` : '');
  const cell = (text: string) => text.padStart(8);
  say('');
  say('targets (DECISIONS "Ingest performance": the durable floor is the anchor)');
  if (floorCheck) {
    const throughput = report.median(floorCheck.throughput);
    const cpu = report.median(floorCheck.cpu);
    say(`  gateway ≥ 0.7× the floor's accepted/s, ${connections} connections    ${cell(`${throughput.toFixed(2)}×`)}  ${report.verdict(throughput >= 0.7)}${spread(floorCheck.throughput)}`);
    say(`  gateway CPU per accepted event ≤ 1.5× the floor's        ${cell(`${cpu.toFixed(2)}×`)}  ${report.verdict(cpu <= 1.5)}${spread(floorCheck.cpu)}`);
  }
  const one = medians.get('one');
  if (one) say(`  gateway p50 < 1 ms with one connection                    ${cell(`${one.gateway.p50.toFixed(2)} ms`)}  ${report.verdict(one.gateway.p50 < 1)}  (bare ${one.bare.p50.toFixed(2)} ms)`);
  if (stream) {
    // The old "0.6× bare while streaming" target, anchored on the floor like the others (the floor
    // is measured idle: the streams only cost the gateway, which reads them in its event loop).
    const floorIdle = idleMedians ? report.medianFigures(idle.floor.map(report.figures)).acceptedPerS : undefined;
    if (floorIdle !== undefined) {
      const kept = stream.gateway.acceptedPerS / floorIdle;
      say(`  gateway ≥ 0.6× the floor while 4 agent runs stream      ${cell(`${kept.toFixed(2)}×`)}  ${report.verdict(kept >= 0.6)}`);
    }
  }
  say('  the ceiling, for reference (no durability): gateway / bare in memory' + PAIRS.map((pair) => `; ${pair.label} ${report.median(perRound.get(pair.key)!).toFixed(2)}×`).join(''));
  say('  memory flat, WAL and state.db bounded over 5 minutes not run here: npm run bench:webhook -- --soak 5');
}

// --- the soak --------------------------------------------------------------------------------
async function soak(upstream: PacedUpstream, gateway: Server, home: string): Promise<void> {
  const total = Math.round(soakMinutes * 60);
  checkAnswers('gateway, first events', await closedLoop(gateway.origin, ROUTE_PATH, delivery, 4, 2));
  await until(`${CONCURRENCY} gateway runs waiting on the hanging model`, () => upstream.open('gateway', 'hang') >= CONCURRENCY);
  const samples: Array<{ t: number; kb: number }> = [];
  let walMax = 0;
  const sample = (t: number, accepted: number) => {
    const wal = fileSize(join(home, 'state.db-wal'));
    walMax = Math.max(walMax, wal);
    const kb = rssKb(gateway.pid);
    if (kb === undefined) return;
    samples.push({ t, kb });
    say(`    t=${String(t).padStart(5)} s  RSS ${megabytes(kb).padStart(9)}  accepted ${report.int(accepted).padStart(9)}  state.db ${mb(fileSize(join(home, 'state.db')))}  WAL ${mb(wal)}`);
  };
  // The WAL is also watched between the printed samples: its peak is what the disk must hold.
  const walWatch = setInterval(() => (walMax = Math.max(walMax, fileSize(join(home, 'state.db-wal')))), 250);
  say(`  soak: ${soakRate} deliveries/s for ${total} s, RSS sampled every 10 s`);
  sample(0, 0);
  const load = await openLoop(gateway.origin, ROUTE_PATH, delivery, {
    perSecond: soakRate,
    seconds: total,
    maxInFlight: 64,
    onTick: (t, accepted) => {
      if (t % 10 === 0) sample(t, accepted);
    },
  });
  clearInterval(walWatch);
  checkAnswers('gateway, soak', load);
  const dbBytes = fileSize(join(home, 'state.db'));
  const walBytes = fileSize(join(home, 'state.db-wal'));
  const retained = await retainedBytes(home);
  const kbs = samples.map((s) => s.kb);
  const fifth = Math.max(1, Math.floor(samples.length / 5));
  const early = Math.max(...kbs.slice(0, fifth));
  const late = Math.max(...kbs.slice(-fifth));
  const growth = late - early;
  const flat = growth <= Math.max(10 * 1024, early * 0.1);
  const f = report.figures({ server: 'gateway', connections: 0, load, serverCpuMs: 0, backgroundDeltasPerS: 0 });
  say('');
  say(`  ${report.int(load.accepted)} accepted (${report.int(f.acceptedPerS)}/s), p50 ${report.ms(f.p50)} ms, p99 ${report.ms(f.p99)} ms [${report.statusSummary(load)}]`);
  say(`  RSS first ${megabytes(kbs[0])}, last ${megabytes(kbs.at(-1))}, max ${megabytes(Math.max(...kbs))}`);
  say(`  memory flat: peak of the last fifth ${megabytes(late)} vs the first fifth ${megabytes(early)} (growth ${megabytes(growth)}; allowed max(10 MB, 10%))  ${report.verdict(flat)}`);
  say(`  WAL ≤ 64 MB: peak ${mb(walMax)}, at the end ${mb(walBytes)}  ${report.verdict(walMax <= 64 * 1048576)}`);
  say(
    `  state.db ≤ 1.5× the events it keeps: ${mb(dbBytes)} for ${report.int(retained.events)} events of ${mb(retained.bytes)} (${(dbBytes / Math.max(1, retained.bytes)).toFixed(2)}×)  ${report.verdict(dbBytes <= 1.5 * retained.bytes)}`,
  );
}

// --- metrics off vs on ------------------------------------------------------------------------
async function metricsComparison(upstream: PacedUpstream, gateway: Server): Promise<void> {
  const { gateway: metered } = await startGateway(upstream, true);
  say(
    `webhook-ingest --metrics: a ${report.int(delivery.body.length)}-byte signed pull_request "opened", a new X-GitHub-Delivery per request; ` +
      `${connections} connections, ${seconds} s per phase, ${rounds} rounds alternating metrics off/on; node ${process.versions.node}, ${availableParallelism()} CPUs`,
  );
  say(`  off  ${relative(process.cwd(), irisBin) || irisBin} gateway run (pid ${gateway.pid}), metrics: false`);
  say(`  on   the same with metrics: true (pid ${metered.pid}), GET /metrics every ${scrapeEverySeconds} s during its phases (no token)`);
  say(`  background: the model hangs, so ${CONCURRENCY} runs hold each gateway's ${CONCURRENCY} workers without using CPU`);
  say('');
  const hung = () => until(`${2 * CONCURRENCY} gateway runs waiting on the hanging model`, () => upstream.open('gateway', 'hang') >= 2 * CONCURRENCY);
  checkAnswers('metrics off, first events', await closedLoop(gateway.origin, ROUTE_PATH, delivery, 1, 0.2));
  checkAnswers('metrics on, first events', await closedLoop(metered.origin, ROUTE_PATH, delivery, 1, 0.2));
  await hung();
  await metricsCost({
    off: gateway,
    on: metered,
    routePath: ROUTE_PATH,
    delivery,
    connections,
    seconds,
    rounds,
    warmupSeconds,
    scrapeEveryMs: scrapeEverySeconds * 1000,
    ticksPerSecond,
    say,
    check: checkAnswers,
    problem: (text) => problems.push(text),
  });
}

// --- the ingest comparison or the soak -------------------------------------------------------
async function ingest(upstream: PacedUpstream, gateway: Server, home: string): Promise<void> {
  const bare = soakMinutes > 0 ? undefined : await startBare();
  const floor = soakMinutes > 0 ? undefined : await startFloor();

  say(
    `webhook-ingest: a ${report.int(delivery.body.length)}-byte signed pull_request "opened", a new X-GitHub-Delivery per request; ` +
      (soakMinutes > 0 ? `soak ${soakMinutes} min` : `${connections} and 1 connections, ${seconds} s per phase, ${rounds} round${rounds === 1 ? '' : 's'} alternating bare/gateway`) +
      `; node ${process.versions.node}, ${availableParallelism()} CPUs`,
  );
  say(
    `  gateway  ${relative(process.cwd(), irisBin) || irisBin} gateway run (pid ${gateway.pid}): route pr (events [pull_request], filter action in [opened, synchronize], deliver log); ` +
      `HMAC, filters, dedup, rate limit ${report.int(rateLimit)}/60 s (out of the way), the inbox write fsync'd before the 202 (group commit on its writer thread), a count a minute in the info log; ${CONCURRENCY} workers`,
  );
  if (bare) say(`  bare     node:http (pid ${bare.pid}): reads the body, HMAC-SHA256 in constant time, JSON.parse, dedup in a Map (bounded, 100k)`);
  if (floor) say(`  floor    the same (pid ${floor.pid}), and the body appended to a file and fdatasync'd before the 202 (group commit on a writer thread): the least a durable receiver does`);
  say(`  load     undici Pool in this process, connections opened before the clock starts, pipelining 1; latency = send to end of answer; CPU/req = server utime+stime from /proc (${ticksPerSecond} Hz) / requests; client CPU = this process`);
  say(
    `  background${bare ? ', idle phases' : ''}: the model hangs, so ${CONCURRENCY} runs hold the ${CONCURRENCY} workers without using CPU; accepted events wait in the inbox`,
  );
  if (bare) {
    say(
      `  background, streaming phases: the gateway's ${CONCURRENCY} runs each read a model answer paced at one delta per ${paceMs} ms; ` +
        `to keep it fair the bare server's phase beside it runs with the same ${CONCURRENCY} paced streams read by a stand-in process, ` +
        'so the machine carries the same streams; what is left is the gateway reading its runs in its own event loop, as in production',
    );
  }
  if (profileDir) say(`  profiling the gateway: --cpu-prof into ${resolve(profileDir)}, the floor into ${join(resolve(profileDir), 'floor')} (written when they stop)`);
  say('');

  if (soakMinutes > 0) await soak(upstream, gateway, home);
  else await comparison(upstream, bare!, floor!, gateway, home);
}

// --- main ------------------------------------------------------------------------------------
try {
  const phaseSeconds = soakMinutes > 0 ? soakMinutes * 60 : seconds;
  const upstream = await startPacedUpstream({ paceMs, streamSeconds: phaseSeconds + 30 });
  cleanups.push(() => upstream.close());
  const { gateway, home } = await startGateway(upstream);
  if (metricsMode) await metricsComparison(upstream, gateway);
  else await ingest(upstream, gateway, home);
} catch (err) {
  problems.push((err as Error).message);
} finally {
  await cleanup();
}

if (problems.length > 0) {
  say('');
  say('something broke:');
  for (const problem of problems) say(`  - ${problem}`);
  process.exitCode = 1;
}
