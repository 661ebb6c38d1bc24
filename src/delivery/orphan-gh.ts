// A gh left running by a gateway that died (kill -9, a crash) outlives it: it has its own process
// group and nobody to time it out. Before the next start checks whether that delivery reached the
// PR, such a gh is killed, so it cannot post after the check said "not posted" (a duplicate).
//
// The recorded pid may have been reused by now. A process is taken for ours only when its command
// line is a gh comment write (`pr comment`, or `api` POST/PATCH of comments) for the same
// repository; anything else is left alone.
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { killProcessGroup } from './gh-binary.js';

export type OrphanOutcome = 'none' | 'reaped' | 'still_running';

/**
 * Is this NUL-separated command line a gh comment on `repo` (as runGh starts it)? Either `gh pr
 * comment … --repo <repo>`, or a `gh api --method POST|PATCH` of `repos/<repo>/issues/…comments…`
 * (the PR-review deliveries). Reads are not ours to stop. Pure.
 */
export function isOurGhComment(cmdline: string, repo: string): boolean {
  const args = cmdline.split('\0');
  const comment = args.findIndex((arg, i) => arg === 'pr' && args[i + 1] === 'comment');
  if (comment >= 0) return args.includes('--repo') && args[args.indexOf('--repo') + 1] === repo;
  const api = args.indexOf('api');
  if (api < 0) return false;
  const method = args[args.indexOf('--method') + 1];
  const writes = args.includes('--method') && (method === 'POST' || method === 'PATCH');
  return writes && args.slice(api + 1).some((arg) => arg.startsWith(`repos/${repo}/issues/`) && arg.includes('comments'));
}

async function commandLine(pid: number): Promise<string | undefined> {
  try {
    // Empty for a zombie: it can post nothing more.
    return (await readFile(`/proc/${pid}/cmdline`, 'utf8')) || undefined;
  } catch {
    return undefined;
  }
}

/** Kills the orphaned gh `pid` (its group) if it is still ours and alive; waits up to `waitMs` for it to go. */
export async function reapOrphanedGh(pid: number, repo: string, waitMs = 2_000): Promise<OrphanOutcome> {
  const cmdline = await commandLine(pid);
  if (cmdline === undefined || !isOurGhComment(cmdline, repo)) return 'none';
  killProcessGroup(pid);
  for (let waited = 0; waited < waitMs; waited += 20) {
    if ((await commandLine(pid)) === undefined) return 'reaped';
    await sleep(20);
  }
  return 'still_running';
}
