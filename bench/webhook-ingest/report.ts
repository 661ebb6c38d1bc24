// Numbers and the printed table: medians, percentiles, per-phase figures, ratios and verdicts.
import type { LoadResult } from './load.js';

export type Phase = {
  readonly server: 'bare' | 'floor' | 'gateway';
  readonly connections: number;
  readonly load: LoadResult;
  /** CPU the server process used during the phase, in ms. */
  readonly serverCpuMs: number;
  /** Model deltas streamed per second in the background (0 in idle phases). */
  readonly backgroundDeltasPerS: number;
};

export type Figures = {
  readonly acceptedPerS: number;
  readonly p50: number;
  readonly p99: number;
  readonly cpuMsPerRequest: number;
  /** The load generator's CPU, in % of one core. */
  readonly clientCpuPct: number;
  readonly backgroundDeltasPerS: number;
};

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

export function figures(phase: Phase): Figures {
  const { load } = phase;
  const seconds = load.elapsedMs / 1000;
  return {
    acceptedPerS: load.accepted / seconds,
    p50: percentile(load.latencies, 0.5),
    p99: percentile(load.latencies, 0.99),
    cpuMsPerRequest: load.requests > 0 ? phase.serverCpuMs / load.requests : Number.NaN,
    clientCpuPct: (load.clientCpuMs / load.elapsedMs) * 100,
    backgroundDeltasPerS: phase.backgroundDeltasPerS,
  };
}

/** The median of each figure over rounds. */
export function medianFigures(all: readonly Figures[]): Figures {
  const of = (key: keyof Figures) => median(all.map((f) => f[key]));
  return {
    acceptedPerS: of('acceptedPerS'),
    p50: of('p50'),
    p99: of('p99'),
    cpuMsPerRequest: of('cpuMsPerRequest'),
    clientCpuPct: of('clientCpuPct'),
    backgroundDeltasPerS: of('backgroundDeltasPerS'),
  };
}

export const int = (n: number) => Math.round(n).toLocaleString('en');
export const ms = (n: number, digits = 2) => n.toFixed(digits);

export function statusSummary(load: LoadResult): string {
  const parts = [...load.statuses.entries()].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${int(n)}`);
  if (load.errors > 0) parts.push(`errors×${load.errors}`);
  return parts.join(' ');
}

/** One line of a round's progress. */
export function phaseLine(label: string, phase: Phase): string {
  const f = figures(phase);
  const background = f.backgroundDeltasPerS > 0 ? `  bg ${int(f.backgroundDeltasPerS)} deltas/s` : '';
  return (
    `    ${label.padEnd(24)} ${int(f.acceptedPerS).padStart(7)}/s  p50 ${ms(f.p50).padStart(6)}  p99 ${ms(f.p99).padStart(6)} ms` +
    `  cpu ${ms(f.cpuMsPerRequest, 3)} ms/req  client ${f.clientCpuPct.toFixed(0).padStart(3)}%${background}  [${statusSummary(phase.load)}]`
  );
}

export function tableHeader(): string {
  return `  ${''.padEnd(31)}${'accepted/s'.padStart(11)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'CPU ms/req'.padStart(12)}${'client CPU'.padStart(12)}`;
}

export function tableRow(label: string, server: string, f: Figures): string {
  return (
    `  ${label.padEnd(22)} ${server.padEnd(8)}${int(f.acceptedPerS).padStart(11)}${ms(f.p50).padStart(9)}${ms(f.p99).padStart(9)}` +
    `${ms(f.cpuMsPerRequest, 3).padStart(12)}${`${f.clientCpuPct.toFixed(0)}%`.padStart(12)}`
  );
}

export function ratioRow(throughput: number, bare: Figures, gateway: Figures): string {
  return (
    `  ${''.padEnd(22)} ${'ratio'.padEnd(8)}${`${throughput.toFixed(2)}×`.padStart(11)}${`${(gateway.p50 / bare.p50).toFixed(1)}×`.padStart(9)}` +
    `${`${(gateway.p99 / bare.p99).toFixed(1)}×`.padStart(9)}${`${(gateway.cpuMsPerRequest / bare.cpuMsPerRequest).toFixed(1)}×`.padStart(12)}`
  );
}

export function verdict(ok: boolean): string {
  return ok ? 'PASS' : 'FAIL';
}

/**
 * The gateway against the durable floor, round by round (adjacent phases, so the machine's drift
 * hits both alike): accepted/s and CPU per accepted event, as ratios gateway / floor.
 */
export function floorRatios(gateway: readonly Figures[], floor: readonly Figures[]): { throughput: number[]; cpu: number[] } {
  return {
    throughput: gateway.map((g, i) => g.acceptedPerS / floor[i]!.acceptedPerS),
    cpu: gateway.map((g, i) => g.cpuMsPerRequest / floor[i]!.cpuMsPerRequest),
  };
}

/** The ratio row of the gateway against the floor: medians of the per-round ratios. */
export function ratioCells(gateway: readonly Figures[], floor: readonly Figures[]): string {
  const { throughput, cpu } = floorRatios(gateway, floor);
  const p50 = median(gateway.map((g, i) => g.p50 / floor[i]!.p50));
  const p99 = median(gateway.map((g, i) => g.p99 / floor[i]!.p99));
  return `${`${median(throughput).toFixed(2)}×`.padStart(11)}${`${p50.toFixed(1)}×`.padStart(9)}${`${p99.toFixed(1)}×`.padStart(9)}${`${median(cpu).toFixed(2)}×`.padStart(12)}`;
}
