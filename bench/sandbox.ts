// What the terminal's sandbox costs per command: the same short command run the way run_command
// runs it, without the sandbox and inside bubblewrap (network off, as gateway runs have it),
// interleaved so machine noise hits both alike. Reports the medians, the median added time and
// the ratio, over `--runs` pairs. No target is set for it (issue 33 asks for the figure).
//
//   npm run bench:sandbox -- [--runs N] [--command 'git --version']
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runShell } from '../src/agent/tools/terminal/run-shell.js';
import { commandToStart } from '../src/sandbox/sandbox-command.js';
import type { SandboxPlan } from '../src/sandbox/settings.js';
import { benchArgs } from './bench-args.js';

const args = benchArgs(process.argv.slice(2));
const runs = args.number('--runs', 40);
const command = args.string('--command') ?? 'echo hello';
const workspace = await mkdtemp(join(tmpdir(), 'iris-bench-sandbox-'));

async function once(plan: SandboxPlan): Promise<number> {
  const start = commandToStart(plan, { shell: '/bin/bash', command, workspace, cwd: workspace, env: { PATH: process.env.PATH } }, {
    env: process.env,
    home: process.env.HOME,
    irisHomes: [],
  });
  if (!start.ok) {
    process.stderr.write(`bench: ${start.error}\n`);
    process.exit(1);
  }
  const began = performance.now();
  const run = await runShell({ file: start.file, args: start.args, cwd: workspace, env: start.env, timeoutMs: 30_000, maxOutputBytes: 32 * 1024, killGraceMs: 1_000, lingerMs: 1_000 });
  const took = performance.now() - began;
  if (run.kind !== 'finished' || run.exitCode !== 0) {
    process.stderr.write(`bench: the command failed (${plan.kind}): ${JSON.stringify(run)}\n`);
    process.exit(1);
  }
  return took;
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

try {
  const off: number[] = [];
  const sandboxed: number[] = [];
  await once({ kind: 'off' });
  await once({ kind: 'bubblewrap', network: false, passEnv: [] });
  for (let i = 0; i < runs; i++) {
    off.push(await once({ kind: 'off' }));
    sandboxed.push(await once({ kind: 'bubblewrap', network: false, passEnv: [] }));
  }
  const added = sandboxed.map((time, i) => time - off[i]!);
  process.stdout.write(
    [
      `sandbox cost of \`${command}\`, ${runs} interleaved pairs`,
      `  off:        median ${median(off).toFixed(2)} ms`,
      `  bubblewrap: median ${median(sandboxed).toFixed(2)} ms (network off)`,
      `  added:      median ${median(added).toFixed(2)} ms per command (${(median(sandboxed) / median(off)).toFixed(2)}× the unsandboxed run)`,
      '',
    ].join('\n'),
  );
} finally {
  await rm(workspace, { recursive: true, force: true });
}
