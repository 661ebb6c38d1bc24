// The harness itself: a hang or a kill is a failed run, never an exit code a test could expect.
import { describe, expect, it } from 'vitest';
import { makeTempDir, removeDir, runIris } from './iris.js';

describe('runIris', () => {
  it('resolves with the exit code of a normal exit', async () => {
    const home = await makeTempDir();
    try {
      expect(await runIris(['frobnicate'], { home })).toMatchObject({ code: 2 });
    } finally {
      await removeDir(home);
    }
  });

  it('rejects a run that outlives its timeout, naming the command', async () => {
    const home = await makeTempDir();
    try {
      // --import of a module that never settles keeps the process alive: a stand-in for a hang.
      const hang = 'data:text/javascript,await new Promise(() => setInterval(() => {}, 1000))';
      await expect(runIris(['--version'], { home, nodeArgs: ['--import', hang], timeoutMs: 500 })).rejects.toThrow(/^bin\/iris --version timed out after 500 ms/);
    } finally {
      await removeDir(home);
    }
  });

  it('rejects a run killed by a signal instead of reading it as an exit code', async () => {
    const home = await makeTempDir();
    try {
      const crash = 'data:text/javascript,process.kill(process.pid, "SIGKILL")';
      await expect(runIris(['--version'], { home, nodeArgs: ['--import', crash] })).rejects.toThrow(/^bin\/iris --version was killed by SIGKILL/);
    } finally {
      await removeDir(home);
    }
  });
});
