// Exit codes and severities agree: an error line comes with a failing exit, never a warning;
// `config get` and `config set` name an unknown key alike, with the same exit code.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

let dir: string;
let home: string;
beforeEach(async () => {
  dir = await makeTempDir();
  home = join(dir, 'home');
});
afterEach(() => removeDir(dir));

const iris = (args: string[]) => runIris(args, { home });

describe('exit codes and severities', () => {
  it('iris skills search with no hubs is an error with exit 1, not a warning', async () => {
    const hint = 'no skills hubs: list the URLs or paths of hub indexes under skills.hubs in config.yaml (docs/skills.md)';
    expect(await iris(['skills', 'search', 'lint'])).toEqual({ code: 1, stdout: '', stderr: `iris: error: ${hint}\n` });
  });

  it('config get of an unknown key suggests the nearest, with config set\'s exit code', async () => {
    const get = await iris(['config', 'get', 'model.defualt']);
    const set = await iris(['config', 'set', 'model.defualt', 'x']);
    expect(get).toEqual({ code: 2, stdout: '', stderr: 'iris: error: unknown config key model.defualt; did you mean model.default?\n' });
    expect(set.code).toBe(get.code);
    expect(set.stderr).toContain('unknown config key model.defualt; did you mean model.default?');
  });

  it('a bare group prints its help on stdout and exits 0', async () => {
    const result = await iris(['kanban']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^Usage: iris kanban \[options\] \[command\]\n/);
  });
});
