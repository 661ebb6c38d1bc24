// Seeds for the fakes' pull-request reads: FAKE_GH_PULLS for the fake gh (test/fakes/fake-gh-pulls.mjs
// describes the file), and a small diff written as GitHub and as GitLab list it.
import { writeFile } from 'node:fs/promises';

export type GhPullFile = { readonly filename: string; readonly status: string; readonly patch?: string; readonly previous_filename?: string };

export type GhPull = {
  readonly title: string;
  readonly draft?: boolean;
  readonly user?: { readonly login: string; readonly type: 'User' | 'Bot' };
  readonly head: { readonly ref: string; readonly sha: string };
  readonly base: { readonly ref: string; readonly sha: string };
  readonly files: readonly GhPullFile[];
};

export type GhPullsData = {
  /** By `<owner>/<name>#<number>`. */
  readonly pulls: Readonly<Record<string, GhPull>>;
  /** By repository, then ref (branch or sha), then path. */
  readonly contents: Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, string>>>>>>;
};

export async function writeGhPulls(path: string, data: GhPullsData): Promise<void> {
  await writeFile(path, JSON.stringify(data));
}

/** `n` added lines `+<word> <i>` in one hunk. */
export function addedPatch(n: number, word = 'line'): string {
  return [`@@ -0,0 +1,${n} @@`, ...Array.from({ length: n }, (_, i) => `+${word} ${i + 1}`)].join('\n');
}
