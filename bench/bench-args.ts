// Command-line options of the benchmarks: `--name value` pairs, a number checked against its
// lower bound (a bad one stops the run with exit code 2 and one line saying why).

export type BenchArgs = {
  readonly has: (name: string) => boolean;
  /** The number after `name`, or `fallback`; below `min` or not a number: exit 2. */
  readonly number: (name: string, fallback: number, min?: number) => number;
  /** The word after `name`, or undefined. */
  readonly string: (name: string) => string | undefined;
};

export function benchArgs(args: readonly string[]): BenchArgs {
  return {
    has: (name) => args.includes(name),
    number(name, fallback, min = 1) {
      const i = args.indexOf(name);
      const value = i >= 0 ? Number(args[i + 1]) : fallback;
      if (!Number.isFinite(value) || value < min) {
        process.stderr.write(`bench: ${name} takes a number of at least ${min}\n`);
        process.exit(2);
      }
      return value;
    },
    string(name) {
      const i = args.indexOf(name);
      return i >= 0 ? args[i + 1] : undefined;
    },
  };
}
