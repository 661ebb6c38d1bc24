// What a terminal shows while live probes wait on a silent endpoint (iris doctor, iris setup):
// what is being checked and for how long; piped output shows none of it.
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IRIS_BIN, makeTempDir, removeDir, runIris } from '../helpers/iris.js';
import { startPty } from '../helpers/pty.js';

let dir: string;
let home: string;
let silent: { url: string; server: Server; sockets: Set<Socket> };

/** Accepts connections and never answers: every probe waits for its own timeout. */
async function startSilentServer(): Promise<typeof silent> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, server, sockets };
}

beforeEach(async () => {
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
  silent = await startSilentServer();
});
afterEach(async () => {
  for (const socket of silent.sockets) socket.destroy();
  await new Promise((resolve) => silent.server.close(resolve));
  await removeDir(dir);
});

describe('progress while probes wait', () => {
  it('iris doctor on a terminal names the probe and the seconds waited', { timeout: 20_000 }, async () => {
    await writeFile(join(home, 'config.yaml'), `model:\n  provider: custom\n  default: m\n  base_url: ${silent.url}/v1\n`, { mode: 0o600 });
    const pty = startPty([process.execPath, IRIS_BIN, 'doctor'], { IRIS_HOME: home });
    await pty.waitFor(`checking custom: GET ${silent.url}/v1/models (1 s)…`, 5_000);
    expect(await pty.exited).toBe(1);
    expect(pty.screen()).toContain('✗ custom probe:');
  });

  it('iris doctor piped shows no progress', { timeout: 20_000 }, async () => {
    await writeFile(join(home, 'config.yaml'), `model:\n  provider: custom\n  default: m\n  base_url: ${silent.url}/v1\n`, { mode: 0o600 });
    const result = await runIris(['doctor'], { home });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.stdout).not.toContain('checking custom');
  });

  it('iris setup on a terminal says which endpoint it probes while it waits', { timeout: 40_000 }, async () => {
    const pty = startPty([process.execPath, IRIS_BIN, 'setup', '--provider', 'custom', '--base-url', `${silent.url}/v1`, '--model', 'm', '--yes'], { IRIS_HOME: home });
    await pty.waitFor(`probing ${silent.url}/v1 for its wire format (GET /models, then a messages request) (1 s)…`, 8_000);
    pty.child.kill('SIGTERM');
    await pty.exited;
  });
});
