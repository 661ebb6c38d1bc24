// Slow headers (slowloris): a client that trickles header bytes and never finishes them is cut
// at the documented 10 s, not whenever Node's periodic connection check next runs (every 30 s
// by default, which let such a client hold a socket for up to 40 s). One test, about 10 s long.
import { connect } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, removeDir } from '../helpers/iris.js';

const HEADERS_TIMEOUT_MS = 10_000;
const BYTE_EVERY_MS = 500;
/** The client gives up here, so a server that never cuts fails the assertion, not the test timeout. */
const CLIENT_CAP_MS = 45_000;

const CONFIG = `model:
  provider: openai
  default: main-m
platforms:
  webhook:
    enabled: true
    extra:
      host: 127.0.0.1
      port: 0
      routes:
        pr:
          secret: slowloris-secret-0123456789
`;

let dir: string;
let gateway: GatewayProcess;

beforeAll(async () => {
  dir = await makeTempDir();
  const home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
  await writeFile(join(home, 'config.yaml'), CONFIG, { mode: 0o600 });
  gateway = await startGatewayProcess(home, { OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' });
});
afterAll(async () => {
  await gateway?.stop();
  await removeDir(dir);
});

type Cut = { elapsedMs: number; answer: string };

/** Sends a request line, then one header byte every `BYTE_EVERY_MS`; resolves when the server answers or closes. */
function slowHeaders(port: number): Promise<Cut> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let started = 0;
    let answer = '';
    let trickle: NodeJS.Timeout | undefined;
    const finish = () => {
      clearInterval(trickle);
      clearTimeout(cap);
      socket.destroy();
      resolve({ elapsedMs: performance.now() - started, answer });
    };
    const cap = setTimeout(finish, CLIENT_CAP_MS);
    socket.on('connect', () => {
      started = performance.now();
      socket.write('POST /webhooks/pr HTTP/1.1\r\nHost: x\r\nX-Slow: ');
      trickle = setInterval(() => socket.write('a'), BYTE_EVERY_MS);
    });
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      finish();
    });
    socket.on('close', finish);
    socket.on('error', (err) => (started === 0 ? reject(err) : finish()));
  });
}

it('cuts a client whose headers never finish within 10 s (+ one check interval)', async () => {
  const cut = await slowHeaders(gateway.port);
  expect(cut.answer === '' || /^HTTP\/1\.1 408 /.test(cut.answer), cut.answer).toBe(true);
  expect(cut.elapsedMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 500);
  expect(cut.elapsedMs).toBeLessThanOrEqual(HEADERS_TIMEOUT_MS + 1_500);
}, CLIENT_CAP_MS + 15_000);
