// Shared by the tools' tests (not a test file itself): a real temporary workspace and home, and a
// ToolContext whose approvals are recorded.
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveHomePaths } from '../../config/home.js';
import type { ApprovalDecision, ApprovalRequest, ToolContext } from './types.js';

export type TempDirs = {
  /** Real path (macOS's /tmp is a symlink). */
  readonly base: string;
  readonly workspace: string;
  readonly home: string;
  cleanup(): Promise<void>;
};

export async function makeTempDirs(): Promise<TempDirs> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'iris-tools-')));
  const workspace = join(base, 'workspace');
  const home = join(base, 'home');
  await mkdir(workspace);
  await mkdir(home);
  return { base, workspace, home, cleanup: () => rm(base, { recursive: true, force: true }) };
}

export const APPROVED: ApprovalDecision = {
  approved: true,
  reason: 'test: approved',
  by: 'policy',
  risk: { level: 'low', reasons: [], source: 'default' },
};

export type RecordingContext = ToolContext & { readonly requests: ApprovalRequest[] };

export function makeContext(
  dirs: Pick<TempDirs, 'workspace' | 'home'>,
  overrides: { signal?: AbortSignal; decision?: ApprovalDecision } = {},
): RecordingContext {
  const requests: ApprovalRequest[] = [];
  return {
    workspaceRoot: dirs.workspace,
    home: resolveHomePaths({ IRIS_HOME: dirs.home }),
    signal: overrides.signal,
    requests,
    approve: async (request) => {
      requests.push(request);
      return overrides.decision ?? APPROVED;
    },
  };
}
