#!/usr/bin/env node
// CLI start-up benchmark: times `iris --version`, `iris config show` and (once it exists)
// `iris status` against the floor of `node -e 0`, interleaved round by round in the same run so
// that machine noise hits every command alike. Prints medians and ratios to the floor.
//
//   node bench/cli-startup.mjs [--runs N] [--strict]
//
// --strict exits 1 when a target is missed (targets: --version and config show within 2× the
// floor, status within 3×).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const args = process.argv.slice(2);
const runsIndex = args.indexOf('--runs');
const runs = runsIndex >= 0 ? Number(args[runsIndex + 1]) : 30;
const strict = args.includes('--strict');
if (!Number.isInteger(runs) || runs < 3) {
  process.stderr.write('bench: --runs takes an integer of at least 3\n');
  process.exit(2);
}

const root = fileURLToPath(new URL('..', import.meta.url));
const iris = join(root, 'bin', 'iris');
const home = mkdtempSync(join(tmpdir(), 'iris-bench-'));
mkdirSync(home, { recursive: true, mode: 0o700 });
// A realistic config: a main model, two pinned aux slots, a webhook route, comments.
writeFileSync(
  join(home, 'config.yaml'),
  `# bench config
model:
  provider: openrouter
  default: anthropic/claude-sonnet-4
auxiliary:
  vision: { provider: openai, model: gpt-4.1 }
  compression: { provider: openrouter, model: google/gemini-2.5-flash }
fallback_providers:
  - { provider: anthropic, model: claude-sonnet-4-6 }
platforms:
  webhook:
    enabled: true
    extra:
      secret: bench-secret-0123456789
      routes:
        pr:
          events: [pull_request]
          prompt: "Review {pull_request.title}"
          deliver: log
`,
  { mode: 0o600 },
);
// Without NODE_EXTRA_CA_CERTS, as the targets were set: when it is set, every Node process reads
// and parses that CA file as it starts (about 80 ms here), the floor included, and a constant that
// large shrinks every ratio toward 1×.
const env = { ...process.env, IRIS_HOME: home };
delete env.NODE_EXTRA_CA_CERTS;

function run(argv) {
  const start = performance.now();
  const result = spawnSync(process.execPath, argv, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = performance.now() - start;
  if (result.status !== 0) {
    throw new Error(`${argv.join(' ')} exited ${result.status}: ${result.stderr.toString()}`);
  }
  return ms;
}

const help = spawnSync(process.execPath, [iris, '--help'], { env }).stdout.toString();
const statusExists = /^\s+status\b/m.test(help);
const cases = [
  { name: 'node -e 0 (floor)', argv: ['-e', '0'], target: null },
  { name: 'iris --version', argv: [iris, '--version'], target: 2 },
  { name: 'iris config show', argv: [iris, 'config', 'show'], target: 2 },
  ...(statusExists ? [{ name: 'iris status', argv: [iris, 'status'], target: 3 }] : []),
];

for (const c of cases) run(c.argv); // warm the file cache
const samples = cases.map(() => []);
for (let round = 0; round < runs; round++) {
  cases.forEach((c, i) => samples[i].push(run(c.argv)));
}
rmSync(home, { recursive: true, force: true });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
const floor = median(samples[0]);
let missed = 0;
process.stdout.write(`cli-startup: ${runs} interleaved runs each, node ${process.versions.node}, NODE_EXTRA_CA_CERTS unset\n`);
cases.forEach((c, i) => {
  const m = median(samples[i]);
  const ratio = m / floor;
  const verdict = c.target === null ? '' : ratio <= c.target ? `  ok (target ≤ ${c.target}×)` : `  MISSED (target ≤ ${c.target}×)`;
  if (c.target !== null && ratio > c.target) missed++;
  process.stdout.write(`  ${c.name.padEnd(20)} median ${m.toFixed(1).padStart(7)} ms  ${ratio.toFixed(2)}× floor${verdict}\n`);
});
if (!statusExists) process.stdout.write('  iris status: not built yet (skipped)\n');
process.exit(strict && missed > 0 ? 1 : 0);
