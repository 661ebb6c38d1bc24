// The load generator: a closed loop of N connections (each sends the next request as soon as the
// last answer is read) for a fixed time, or an open loop at a fixed rate (the soak). Every request
// carries a fresh delivery id; each latency is taken with process.hrtime.bigint() from the send to
// the end of the answer body.
import { hrtime } from 'node:process';
import { Pool } from 'undici';
import type { SignedDelivery } from './payload.js';

export type LoadResult = {
  readonly requests: number;
  /** Answers with the accepted status (202). */
  readonly accepted: number;
  /** status → count, every status seen. */
  readonly statuses: ReadonlyMap<number, number>;
  readonly errors: number;
  /** The first answer that was not accepted, or the first error. */
  readonly firstProblem?: string;
  readonly elapsedMs: number;
  /** Sorted, in milliseconds. */
  readonly latencies: Float64Array;
  /** CPU used by this process during the load, in ms (the generator's own cost). */
  readonly clientCpuMs: number;
};

type Recorder = {
  latencies: number[];
  statuses: Map<number, number>;
  accepted: number;
  errors: number;
  firstProblem?: string;
};

const ACCEPTED = 202;
const MAX_ERRORS = 1_000;

/**
 * One request through `dispatch` with a bare handler: no body stream per answer, so the generator
 * costs about a third less CPU than `pool.request` and leaves more of the machine to the servers.
 * (The handler uses undici's classic callbacks, which Pool.dispatch requires.)
 */
function exchange(pool: Pool, path: string, delivery: SignedDelivery): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    let status = 0;
    let text = '';
    pool.dispatch(
      { path, method: 'POST', headers: delivery.headers(), body: delivery.body },
      {
        onConnect: () => {},
        onHeaders: (statusCode: number) => {
          status = statusCode;
          return true;
        },
        onData: (chunk: Buffer) => {
          if (status !== ACCEPTED && text.length < 1_000) text += chunk.toString('utf8');
          return true;
        },
        onComplete: () => resolve({ status, text }),
        onError: reject,
      },
    );
  });
}

async function send(pool: Pool, path: string, delivery: SignedDelivery, into: Recorder): Promise<void> {
  const start = hrtime.bigint();
  try {
    const { status, text } = await exchange(pool, path, delivery);
    into.latencies.push(Number(hrtime.bigint() - start) / 1e6);
    into.statuses.set(status, (into.statuses.get(status) ?? 0) + 1);
    if (status === ACCEPTED) into.accepted++;
    else into.firstProblem ??= `HTTP ${status}: ${text.slice(0, 200)}`;
  } catch (err) {
    into.errors++;
    into.firstProblem ??= `request failed: ${(err as Error).message}`;
  }
}

function result(into: Recorder, startNs: bigint, cpuBefore: NodeJS.CpuUsage): LoadResult {
  const elapsedMs = Number(hrtime.bigint() - startNs) / 1e6;
  const cpu = process.cpuUsage(cpuBefore);
  const latencies = Float64Array.from(into.latencies).sort();
  return {
    requests: latencies.length + into.errors,
    accepted: into.accepted,
    statuses: into.statuses,
    errors: into.errors,
    ...(into.firstProblem !== undefined ? { firstProblem: into.firstProblem } : {}),
    elapsedMs,
    latencies,
    clientCpuMs: (cpu.user + cpu.system) / 1000,
  };
}

const recorder = (): Recorder => ({ latencies: [], statuses: new Map(), accepted: 0, errors: 0 });

/**
 * Opens the pool's connections before the clock starts. A fresh pool queues requests on clients
 * that are still connecting, so the first answers of a phase would otherwise wait behind each other
 * (a staircase of up to a second or more at 64 connections), whichever server answers.
 */
async function connectAll(pool: Pool, path: string, delivery: SignedDelivery, connections: number): Promise<void> {
  const into = recorder();
  const end = Date.now() + 5_000;
  while (pool.stats.connected < connections && Date.now() < end) {
    await Promise.all(Array.from({ length: connections - pool.stats.connected }, () => send(pool, path, delivery, into)));
  }
  if (into.errors > 0 || into.accepted < into.latencies.length) throw new Error(`opening connections: ${into.firstProblem ?? 'failed'}`);
}

/** `connections` requests in flight for `seconds`; answers in flight at the deadline are waited for. */
export async function closedLoop(
  origin: string,
  path: string,
  delivery: SignedDelivery,
  connections: number,
  seconds: number,
  /** Runs once the connections are open, right before the clock starts (take readings here). */
  onStart: () => void = () => {},
): Promise<LoadResult> {
  const pool = new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 30_000 });
  await connectAll(pool, path, delivery, connections);
  onStart();
  const into = recorder();
  const cpuBefore = process.cpuUsage();
  const start = hrtime.bigint();
  const deadline = start + BigInt(Math.round(seconds * 1e9));
  const worker = async () => {
    while (hrtime.bigint() < deadline && into.errors < MAX_ERRORS) await send(pool, path, delivery, into);
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const done = result(into, start, cpuBefore);
  await pool.close();
  return done;
}

/**
 * About `perSecond` requests a second for `seconds`, sent in 10 ms slices so they arrive spread out
 * rather than in bursts, at most `maxInFlight` at once; `onTick` runs every second with the
 * running totals.
 */
export async function openLoop(
  origin: string,
  path: string,
  delivery: SignedDelivery,
  options: { perSecond: number; seconds: number; maxInFlight: number; onTick?: (elapsedS: number, accepted: number) => void },
): Promise<LoadResult> {
  const pool = new Pool(origin, { connections: Math.min(16, options.maxInFlight), pipelining: 1, keepAliveTimeout: 30_000 });
  const into = recorder();
  const cpuBefore = process.cpuUsage();
  const start = hrtime.bigint();
  const inFlight = new Set<Promise<void>>();
  let due = 0;
  let lastTick = 0;
  const SLICES_PER_SECOND = 100;
  for (let slice = 1; slice <= options.seconds * SLICES_PER_SECOND; slice++) {
    const at = start + BigInt(slice) * BigInt(1e9 / SLICES_PER_SECOND);
    const wait = Number(at - hrtime.bigint()) / 1e6;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    due += options.perSecond / SLICES_PER_SECOND;
    while (due >= 1) {
      due--;
      if (inFlight.size >= options.maxInFlight) continue; // overloaded: shed, it shows in the rate
      const request = send(pool, path, delivery, into).finally(() => inFlight.delete(request));
      inFlight.add(request);
    }
    const elapsedS = Math.floor(slice / SLICES_PER_SECOND);
    if (elapsedS > lastTick) {
      lastTick = elapsedS;
      options.onTick?.(elapsedS, into.accepted);
    }
    if (into.errors >= MAX_ERRORS) break;
  }
  await Promise.all(inFlight);
  const done = result(into, start, cpuBefore);
  await pool.close();
  return done;
}
