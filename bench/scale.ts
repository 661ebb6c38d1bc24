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
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';
import { closedLoop, type LoadResult } from './webhook-ingest/load.js';
import { signedPullRequest } from './webhook-ingest/payload.js';
import { startServer, type Server } from './webhook-ingest/processes.js';
import { int, median, ms, percentile } from './webhook-ingest/report.js';
import { scaleConfig, schemaUrl, type Backend } from './scale/setup.js';

const args = process.argv.slice(2);
function option(name: string, fallback: number, min = 1): number {
  const i = args.indexOf(name);
  const value = i >= 0 ? Number(args[i + 1]) : fallback;
  if (!Number.isFinite(value) || value < min) {
    process.stderr.write(`bench: ${name} takes a number of at least ${min}\n`);
    process.exit(2);
  }
  return value;
}
const seconds = option('--seconds', 8, 1);
const rounds = Math.round(option('--rounds', 3, 1));
const connections = Math.round(option('--connections', 48, 3));
const warmupSeconds = option('--warmup', 2, 0);
const pgIndex = args.indexOf('--pg');
const pgUrl = pgIndex >= 0 ? args[pgIndex + 1]! : (process.env.IRIS_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test');

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

type Figures = { readonly acceptedPerS: number; readonly p50: number; readonly p99: number };

function combine(results: readonly LoadResult[]): Figures & { problem?: string } {
  const accepted = results.reduce((sum, r) => sum + r.accepted, 0);
  const elapsedMs = Math.max(...results.map((r) => r.elapsedMs));
  const latencies = Float64Array.from(results.flatMap((r) => [...r.latencies])).sort();
  const problem = results.find((r) => r.firstProblem !== undefined)?.firstProblem;
  return { acceptedPerS: accepted / (elapsedMs / 1000), p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), ...(problem ? { problem } : {}) };
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
        const figures = combine(await load(listeners, seconds));
        if (figures.problem !== undefined) throw new Error(`${setup.label}: ${figures.problem}`);
        byLabel.get(setup.label)!.push(figures);
        process.stdout.write(`round ${round} ${setup.label.padEnd(12)} ${int(figures.acceptedPerS).padStart(7)} accepted/s  p50 ${ms(figures.p50)} ms  p99 ${ms(figures.p99)} ms\n`);
      } finally {
        await stop();
      }
    }
  }
  const medians = new Map([...byLabel].map(([label, all]) => [label, { acceptedPerS: median(all.map((f) => f.acceptedPerS)), p50: median(all.map((f) => f.p50)), p99: median(all.map((f) => f.p99)) }]));
  const base = medians.get('postgres ×1')!.acceptedPerS;
  process.stdout.write('\nsetup          accepted/s   p50 ms   p99 ms   × postgres ×1   rounds\n');
  for (const setup of SETUPS) {
    const m = medians.get(setup.label)!;
    const ratios = byLabel.get(setup.label)!.map((f, i) => (f.acceptedPerS / byLabel.get('postgres ×1')![i]!.acceptedPerS).toFixed(2));
    process.stdout.write(`${setup.label.padEnd(14)} ${int(m.acceptedPerS).padStart(10)} ${ms(m.p50).padStart(8)} ${ms(m.p99).padStart(8)} ${(m.acceptedPerS / base).toFixed(2).padStart(15)}   ${ratios.join(', ')}\n`);
  }
  const two = medians.get('postgres ×2')!.acceptedPerS / base;
  const verdict = two >= TARGET ? 'PASS' : cores <= 2 ? `MISSED (${cores} cores: the listeners, PostgreSQL and the load generator share them)` : 'MISSED';
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
