// The webhook benchmark's durable floor: the ratios against it, and the floor server itself (it must
// answer 202 only for a body it has written, and refuse what the bare server refuses).
import { createHmac } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { floorRatios, ratioCells, type Figures } from '../../bench/webhook-ingest/report.js';
import { REPO_ROOT } from '../helpers/iris.js';

describe('the gateway against the floor', () => {
  const figures = (acceptedPerS: number, cpuMsPerRequest: number, p50 = 1, p99 = 2): Figures => ({ acceptedPerS, p50, p99, cpuMsPerRequest, clientCpuPct: 0, backgroundDeltasPerS: 0 });

  it('takes the ratios round by round, gateway over floor', () => {
    expect(floorRatios([figures(700, 0.375), figures(600, 0.5)], [figures(1000, 0.25), figures(1200, 0.25)])).toEqual({ throughput: [0.7, 0.5], cpu: [1.5, 2] });
  });

  it('prints the medians of the per-round ratios in the table\'s columns', () => {
    const row = ratioCells([figures(700, 0.15, 2, 8), figures(600, 0.2, 3, 8), figures(900, 0.1, 1, 2)], [figures(1000, 0.1), figures(1000, 0.1), figures(1000, 0.1)]);
    expect(row).toBe('      0.70×     2.0×     4.0×       1.50×');
  });
});

describe('durable-floor-server.mjs', () => {
  const SECRET = 'floor-test-secret';
  let dir: string;
  let child: ChildProcess;
  let origin: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'iris-floor-test-'));
    child = spawn(process.execPath, [join(REPO_ROOT, 'bench/webhook-ingest/durable-floor-server.mjs'), SECRET, join(dir, 'accepted.log')], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const port = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /listening (\d+)/.exec(out);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`the floor server exited (${code})`)));
    });
    origin = `http://127.0.0.1:${port}`;
  });

  afterAll(() => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (body: string, signature: string, delivery: string) =>
    fetch(`${origin}/webhooks/pr`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-github-event': 'pull_request', 'x-github-delivery': delivery, 'x-hub-signature-256': signature },
      body,
    });
  const sign = (body: string) => `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;

  it('answers 202 once the body is in its file, each body after a 4-byte length', async () => {
    const bodies = ['{"action":"opened","n":1}', '{"action":"opened","n":2}'];
    for (const [i, body] of bodies.entries()) {
      const res = await post(body, sign(body), `d-${i}`);
      expect(res.status).toBe(202);
      expect(await res.json()).toEqual({ status: 'accepted', route: 'pr', event: 'pull_request', delivery_id: `d-${i}` });
    }
    const file = readFileSync(join(dir, 'accepted.log'));
    const records: string[] = [];
    for (let at = 0; at < file.length && records.length < bodies.length; ) {
      const size = file.readUInt32LE(at);
      records.push(file.subarray(at + 4, at + 4 + size).toString());
      at += 4 + size;
    }
    expect(records).toEqual(bodies);
  });

  it('refuses a bad signature (401) and answers a repeated delivery as a duplicate (200)', async () => {
    const body = '{"action":"opened","n":3}';
    expect((await post(body, 'sha256=00', 'd-3')).status).toBe(401);
    expect((await post(body, sign(body), 'd-0')).status).toBe(200);
  });
});
