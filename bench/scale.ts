// Scale-out benchmark: accepted webhook events a second with 1, 2 and 3 listener processes
// (`iris gateway run --role listener`) sharing one PostgreSQL, and SQLite with one listener for
// reference. The load (signed ~8 KB pull_request events, a new delivery id each) comes from this
// process, spread evenly over the listeners' ports as a load balancer would; the total number of
// connections is the same in every configuration. Configurations alternate round by round so the
// shared machine's noise hits them alike; the report gives medians, p50/p99 and the ratios.
//
//   npm run bench:scale -- [--seconds N] [--rounds N] [--connections N] [--warmup S] [--pg URL]
//
// Target: 2 listeners ≥ 1.6× one listener, where the CPU allows (the run says how many cores it
// had: the listeners, PostgreSQL and this load generator share them). Exits 0 whatever the
// numbers; 1 when something broke (a listener did not start, an answer that was not 202).
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';
import { benchArgs } from './bench-args.js';
import { closedLoop, type LoadResult } from './webhook-ingest/load.js';
import { signedPullRequest } from './webhook-ingest/payload.js';
import { clockTicksPerSecond, cpuTicks, startServer, type Server } from './webhook-ingest/processes.js';
import { int, median, ms, percentile } from './webhook-ingest/report.js';
import { machineTicks, postgresTicks, scaleConfig, schemaUrl, type Backend } from './scale/setup.js';

const { number: option, string: stringOption } = benchArgs(process.argv.slice(2));
const seconds = option('--seconds', 8, 1);
const rounds = Math.round(option('--rounds', 3, 1));
const connections = Math.round(option('--connections', 48, 3));
const warmupSeconds = option('--warmup', 2, 0);
const pgUrl = stringOption('--pg') ?? process.env.IRIS_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const SECRET = 'bench-scale-secret-4b7e1d90c2a5';
const ROUTE_PATH = '/webhooks/pr';
const TARGET = 1.6;
const benchDir = dirname(resolve(process.argv[1]!));
const irisBin = join(benchDir, '..', 'bin', 'iris');
const delivery = signedPullRequest(SECRET);

type Setup = { readonly label: string; readonly backend: Backend; readonly listeners: number };
const SETUPS: readonly Setup[] = [
  { label: 'sqlite ×1', backend: 'sqlite', listeners: 1 },
  { label: 'postgres ×1', backend: 'postgres', listeners: 1 },
  { label: 'postgres ×2', backend: 'postgres', listeners: 2 },
  { label: 'postgres ×3', backend: 'postgres', listeners: 3 },
];

const cleanups: Array<() => unknown> = [];
async function cleanup(): Promise<void> {
  for (const step of cleanups.splice(0).reverse()) {
    try {
      await step();
    } catch {
      // best effort: the rest still runs
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void cleanup().finally(() => process.exit(130)));

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Starts the setup's listeners on a fresh store; returns them and how to tear them down. */
async function startListeners(setup: Setup, round: number): Promise<{ listeners: Server[]; stop: () => Promise<void> }> {
  const schema = `iris_bench_scale_${process.pid}_${round}_${setup.listeners}`;
  let url: string | undefined;
  if (setup.backend === 'postgres') {
    await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
    url = schemaUrl(pgUrl, schema);
  }
  const homes: string[] = [];
  const listeners: Server[] = [];
  const stop = async () => {
    await Promise.all(listeners.map((listener) => listener.stop()));
    for (const home of homes) rmSync(home, { recursive: true, force: true });
    if (setup.backend === 'postgres') await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  };
  try {
    for (let i = 0; i < setup.listeners; i++) {
      // A home each, as on separate hosts; the store is the one thing they share.
      const home = mkdtempSync(join(tmpdir(), 'iris-bench-scale-'));
      chmodSync(home, 0o700);
      homes.push(home);
      writeFileSync(join(home, 'config.yaml'), scaleConfig(SECRET, url), { mode: 0o600 });
      const env = { ...process.env, IRIS_HOME: home, OPENAI_API_KEY: 'test-key-0123456789' };
      // One at a time: the first migrates the schema, the others find it done.
      listeners.push(await startServer(`listener ${i + 1}`, [irisBin, 'gateway', 'run', '--role', 'listener'], env, /gateway listening on \S+:(\d+)/));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { listeners, stop };
}

/** The connections spread evenly over the listeners, all loaded at once. */
async function load(listeners: readonly Server[], loadSeconds: number): Promise<LoadResult[]> {
  const share = (i: number) => Math.floor(connections / listeners.length) + (i < connections % listeners.length ? 1 : 0);
  return Promise.all(listeners.map((listener, i) => closedLoop(listener.origin, ROUTE_PATH, delivery, share(i), loadSeconds)));
}

type Figures = {
  readonly acceptedPerS: number;
  readonly p50: number;
  readonly p99: number;
  /** CPU per accepted event, in ms: the listeners', PostgreSQL's (server and backends). */
  readonly listenerCpuMs: number;
  readonly postgresCpuMs: number;
  /** How busy the whole machine was, in % of all its cores. */
  readonly busyPct: number;
};

const ticksPerSecond = clockTicksPerSecond();
const postgresPids = (): number[] =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('postgres');
      } catch {
        return false;
      }
    });

type CpuReading = { readonly listeners: number; readonly postgres: number; readonly machine: { total: number; idle: number } };
function readCpu(listeners: readonly Server[]): CpuReading {
  return {
    listeners: listeners.reduce((sum, listener) => sum + cpuTicks(listener.pid), 0),
    postgres: postgresTicks(postgresPids, cpuTicks),
    machine: machineTicks((path) => readFileSync(path, 'utf8')),
  };
}

function combine(results: readonly LoadResult[], before: CpuReading, after: CpuReading): Figures & { problem?: string } {
  const accepted = results.reduce((sum, r) => sum + r.accepted, 0);
  const elapsedMs = Math.max(...results.map((r) => r.elapsedMs));
  const latencies = Float64Array.from(results.flatMap((r) => [...r.latencies])).sort();
  const problem = results.find((r) => r.firstProblem !== undefined)?.firstProblem;
  const msPerEvent = (ticks: number) => (accepted > 0 ? ((ticks / ticksPerSecond) * 1000) / accepted : Number.NaN);
  const total = after.machine.total - before.machine.total;
  return {
    acceptedPerS: accepted / (elapsedMs / 1000),
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    listenerCpuMs: msPerEvent(after.listeners - before.listeners),
    postgresCpuMs: msPerEvent(after.postgres - before.postgres),
    busyPct: total > 0 ? (100 * (total - (after.machine.idle - before.machine.idle))) / total : Number.NaN,
    ...(problem ? { problem } : {}),
  };
}

async function main(): Promise<number> {
  const cores = availableParallelism();
  process.stdout.write(`bench:scale — ${cores} cores, ${connections} connections in all, ${seconds} s phases, ${rounds} rounds, PostgreSQL ${pgUrl.replace(/:[^:@/]*@/, ':***@')}\n`);
  const byLabel = new Map<string, Figures[]>(SETUPS.map((setup) => [setup.label, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const setup of SETUPS) {
      const { listeners, stop } = await startListeners(setup, round);
      try {
        if (warmupSeconds > 0) await load(listeners, warmupSeconds);
        const before = readCpu(listeners);
        const results = await load(listeners, seconds);
        const figures = combine(results, before, readCpu(listeners));
        if (figures.problem !== undefined) throw new Error(`${setup.label}: ${figures.problem}`);
        byLabel.get(setup.label)!.push(figures);
        process.stdout.write(
          `round ${round} ${setup.label.padEnd(12)} ${int(figures.acceptedPerS).padStart(7)} accepted/s  p50 ${ms(figures.p50)} ms  p99 ${ms(figures.p99)} ms  ` +
            `CPU/event: listeners ${ms(figures.listenerCpuMs, 3)} ms, postgres ${ms(figures.postgresCpuMs, 3)} ms; machine ${figures.busyPct.toFixed(0)}% busy\n`,
        );
      } finally {
        await stop();
      }
    }
  }
  const of = (all: readonly Figures[], key: keyof Figures) => median(all.map((f) => f[key]));
  const medians = new Map(
    [...byLabel].map(([label, all]) => [
      label,
      { acceptedPerS: of(all, 'acceptedPerS'), p50: of(all, 'p50'), p99: of(all, 'p99'), listenerCpuMs: of(all, 'listenerCpuMs'), postgresCpuMs: of(all, 'postgresCpuMs'), busyPct: of(all, 'busyPct') },
    ]),
  );
  const base = medians.get('postgres ×1')!.acceptedPerS;
  process.stdout.write('\nsetup          accepted/s   p50 ms   p99 ms  CPU ms/event (listeners + postgres)  machine busy   × postgres ×1   rounds\n');
  for (const setup of SETUPS) {
    const m = medians.get(setup.label)!;
    const ratios = byLabel.get(setup.label)!.map((f, i) => (f.acceptedPerS / byLabel.get('postgres ×1')![i]!.acceptedPerS).toFixed(2));
    const cpu = `${ms(m.listenerCpuMs, 3)} + ${ms(m.postgresCpuMs, 3)}`;
    process.stdout.write(
      `${setup.label.padEnd(14)} ${int(m.acceptedPerS).padStart(10)} ${ms(m.p50).padStart(8)} ${ms(m.p99).padStart(8)}  ${cpu.padStart(35)}  ${`${m.busyPct.toFixed(0)}%`.padStart(12)} ${(m.acceptedPerS / base).toFixed(2).padStart(15)}   ${ratios.join(', ')}\n`,
    );
  }
  const two = medians.get('postgres ×2')!.acceptedPerS / base;
  // "Where the CPU allows": a second listener can add throughput only from the cores one listener
  // left idle, so 2 listeners can reach at most 100 % / (how busy the machine was with one).
  const oneBusy = medians.get('postgres ×1')!.busyPct;
  const ceiling = 100 / oneBusy;
  const verdict =
    two >= TARGET
      ? 'PASS'
      : ceiling < TARGET
        ? `NOT REACHABLE HERE: with one listener the machine was already ${oneBusy.toFixed(0)}% busy on ${cores} cores (listeners, PostgreSQL and this load generator share them), so 2 listeners can reach at most ${ceiling.toFixed(2)}×; they reached ${((two / ceiling) * 100).toFixed(0)}% of that`
        : 'MISSED';
  process.stdout.write(`\n2 listeners vs 1: ${two.toFixed(2)}× (target ≥ ${TARGET}× where the CPU allows) ${verdict}\n`);
  return 0;
}

main()
  .then(async (code) => {
    await cleanup();
    process.exit(code);
  })
  .catch(async (err: unknown) => {
    process.stderr.write(`bench:scale failed: ${err instanceof Error ? err.message : String(err)}\n`);
    await cleanup();
    process.exit(1);
  });
