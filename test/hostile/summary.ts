// What the hostile run's answers add up to: outcomes per class, the status histogram, and the
// answers that fail the run (any 5xx, a timeout, an outcome the class does not allow).
import type { HostileClass } from './class-types.js';
import type { Result } from './load.js';

export type Tally = {
  readonly requests: number;
  readonly perClass: ReadonlyMap<HostileClass, ReadonlyMap<string, number>>;
  readonly histogram: ReadonlyMap<string, number>;
  readonly failures: readonly string[];
};

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

export function failureOf(cls: HostileClass, label: string): string | undefined {
  if (/^5\d\d$/.test(label)) return `${cls.name}: a ${label} answer`;
  if (!cls.allowed.includes(label)) return `${cls.name}: ${label} (allowed: ${cls.allowed.join(', ')})`;
  return undefined;
}

export function tally(classes: readonly HostileClass[], results: readonly Result[]): Tally {
  const perClass = new Map(classes.map((cls) => [cls, new Map<string, number>()]));
  const histogram = new Map<string, number>();
  const failures = new Map<string, number>();
  for (const { cls, outcome } of results) {
    for (const label of outcome.labels) {
      bump(perClass.get(cls)!, label);
      bump(histogram, label);
      const failure = failureOf(cls, label);
      if (failure) bump(failures, failure);
    }
  }
  return { requests: results.length, perClass, histogram, failures: [...failures].map(([text, n]) => `${text} × ${n}`) };
}

function counts(map: ReadonlyMap<string, number>): string {
  return [...map].sort(([a], [b]) => a.localeCompare(b)).map(([label, n]) => `${label}: ${n}`).join(', ');
}

export function formatSummary(t: Tally, facts: Readonly<Record<string, string>>): string {
  const width = Math.max(...[...t.perClass.keys()].map((cls) => cls.name.length));
  return [
    `hostile run: ${t.requests} requests (exchanges) in ${t.perClass.size} classes`,
    ...[...t.perClass].map(([cls, labels]) => `  ${cls.name.padEnd(width)}  ${String(cls.count).padStart(4)}  ${counts(labels)}`),
    `statuses: ${counts(t.histogram)}`,
    ...Object.entries(facts).map(([name, value]) => `${name}: ${value}`),
    t.failures.length === 0 ? 'failures: none' : `failures:\n  ${t.failures.join('\n  ')}`,
  ].join('\n');
}
