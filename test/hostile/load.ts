// The hostile run's load: every class's requests spread evenly through the run, sent with bounded
// concurrency, while the gateway's resident memory is sampled.
import { readFileSync } from 'node:fs';
import type { Ctx, HostileClass } from './class-types.js';
import { exchange, type Outcome } from './raw-exchange.js';

export type Job = { readonly cls: HostileClass; readonly i: number };
export type Result = { readonly cls: HostileClass; readonly outcome: Outcome };

/** All jobs, interleaved: each class's i-th request sits at fraction i/count of the run. */
export function schedule(classes: readonly HostileClass[]): Job[] {
  const jobs = classes.flatMap((cls) => Array.from({ length: cls.count }, (_, i) => ({ cls, i, at: (i + 0.5) / cls.count })));
  return jobs.sort((a, b) => a.at - b.at).map(({ cls, i }) => ({ cls, i }));
}

export async function runJobs(port: number, ctx: Ctx, jobs: readonly Job[], concurrency: number): Promise<Result[]> {
  const results: Result[] = [];
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const { cls, i } = jobs[next++]!;
      results.push({ cls, outcome: await exchange(port, cls.plan(i, ctx)) });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results;
}

/** Resident set size of a process in kB (VmRSS), or undefined once it is gone. */
export function rssKb(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Samples a process's RSS every `everyMs`: `peak` gives the largest sample since the last call. */
export function sampleRss(pid: number, everyMs: number): { peak(): number; stop(): void } {
  let maxKb = 0;
  const sample = () => (maxKb = Math.max(maxKb, rssKb(pid) ?? 0));
  const timer = setInterval(sample, everyMs);
  return {
    peak: () => {
      const peak = Math.max(maxKb, rssKb(pid) ?? 0);
      maxKb = 0;
      return peak;
    },
    stop: () => clearInterval(timer),
  };
}
