// Data on stdout reaches a slow reader whole, and a reader that leaves early ends the output
// quietly: src/cli/console.ts writes to the descriptor itself (process.stdout costs start-up).
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanEnv, IRIS_BIN, makeTempDir, removeDir, REPO_ROOT } from '../helpers/iris.js';

let dir: string;
let home: string;
// Larger than the buffer of the socket a child's stdout is (about 200 KB here): the write has to
// wait for the reader.
const PROMPT = 'Review {pull_request.title} '.repeat(40_000);
beforeEach(async () => {
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
  await writeFile(join(home, 'config.yaml'), `platforms:\n  webhook:\n    extra:\n      routes:\n        pr:\n          prompt: ${JSON.stringify(PROMPT)}\n`, { mode: 0o600 });
});
afterEach(() => removeDir(dir));

function start(nodeArgs: string[], args: string[]) {
  const child = spawn(process.execPath, [...nodeArgs, IRIS_BIN, ...args], { env: cleanEnv({ IRIS_HOME: home }), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return { child, exited, stderr: () => stderr };
}

/** Reads everything, but only from `afterMs` on: the child's writes fill the socket and wait. */
function readLate(stream: NodeJS.ReadableStream, afterMs: number): Promise<string> {
  const chunks: Buffer[] = [];
  // A listener from the start: Node drops what a child wrote to a stdout nobody listens to.
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.pause();
  setTimeout(() => stream.resume(), afterMs);
  return new Promise((resolve) => stream.on('end', () => resolve(Buffer.concat(chunks).toString())));
}

type Shown = { platforms: { webhook: { extra: { routes: { pr: { prompt: string } } } } } };
const promptIn = (stdout: string) => (JSON.parse(stdout) as Shown).platforms.webhook.extra.routes.pr.prompt;

describe('data on stdout', () => {
  it('reaches a reader that starts late, whole', async () => {
    const run = start([], ['config', 'show', '--json']);
    const stdout = await readLate(run.child.stdout, 300);
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(promptIn(stdout)).toBe(PROMPT);
    expect(run.stderr()).toBe('');
  });

  // process.stdout, once made, sets a pipe non-blocking: a full pipe then refuses a direct write
  // (EAGAIN), and the rest has to go through the stream.
  it('reaches a late reader whole when stdout was set non-blocking', async () => {
    // A fixed path: the code cache's name hashes the node flags, --import's path among them.
    const run = start(['--import', join(REPO_ROOT, 'test', 'helpers', 'open-stdout.mjs')], ['config', 'show', '--json']);
    const stdout = await readLate(run.child.stdout, 300);
    expect({ ...(await run.exited), stderr: run.stderr() }).toEqual({ code: 0, signal: null, stderr: '' });
    expect(promptIn(stdout)).toBe(PROMPT);
  });

  it('ends quietly with exit code 0 when the reader closes early', async () => {
    const run = start([], ['config', 'show']);
    run.child.stdout.destroy();
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.stderr()).toBe('');
  });
});
