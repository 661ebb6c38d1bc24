// The "waiting for …" line while a model is slow to answer: on a terminal only, gone once the
// answer starts, never in piped output.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { IRIS_BIN, makeTempDir, removeDir, runIris } from '../helpers/iris.js';
import { KEYS, startPty } from '../helpers/pty.js';

let fake: FakeUpstream;
let dir: string;
let home: string;
beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
  await mkdir(join(dir, 'work'));
  await writeFile(join(home, 'config.yaml'), `model:\n  provider: openai\n  default: slow-m\nagent:\n  workspace: ${join(dir, 'work')}\n`, { mode: 0o600 });
});
afterEach(() => removeDir(dir));

const env = () => ({ IRIS_HOME: home, OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` });
const slowAnswer = () => fake.script('slow-m', { kind: 'slow_first_byte', delayMs: 2_500, then: { kind: 'text', deltas: ['Finally here.'] } }, { kind: 'text', deltas: ['Slow title'] });

describe('progress while the model is slow', () => {
  it('chat -q on a terminal shows the model and the seconds waited, then the answer in its place', async () => {
    slowAnswer();
    const pty = startPty([process.execPath, IRIS_BIN, 'chat', '-q', 'hello'], env());
    await pty.waitFor('waiting for openai · slow-m (1 s)…', 5_000);
    expect(await pty.exited).toBe(0);
    const screen = pty.screen();
    expect(screen).toContain('Finally here.');
    expect(screen.indexOf('waiting for openai · slow-m (0 s)…')).toBeLessThan(screen.indexOf('Finally here.'));
  });

  it('the REPL on a terminal shows it too', async () => {
    slowAnswer();
    const pty = startPty([process.execPath, IRIS_BIN, 'chat'], env());
    await pty.waitFor('› ');
    pty.type(`hello${KEYS.enter}`);
    await pty.waitFor('waiting for openai · slow-m (1 s)…', 5_000);
    await pty.waitFor('Finally here.', 5_000);
    pty.type('/exit\r');
    expect(await pty.exited).toBe(0);
  });

  it('piped output carries no spinner at all', async () => {
    slowAnswer();
    const result = await runIris(['chat', '-q', 'hello'], { home, env: env() });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Finally here.\n');
    expect(result.stderr).not.toContain('waiting for');
    expect(result.stderr).not.toContain('\u001b[');
  });
});
