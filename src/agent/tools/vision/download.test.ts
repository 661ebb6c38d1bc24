// Against a real local HTTP server: the timer must bound a trickling body, and the cap must stop
// reading a body that never says its length. The server is on loopback, so the guard is told to
// open it (allow_cidrs 127.0.0.1); without that, the download is refused before connecting.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFetchGuard } from '../../../net/fetch-guard.js';
import { downloadBytes } from './download.js';
import { IMAGE_MAX_BYTES } from './load-image.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
let server: Server;
let base: string;
const requested: string[] = [];
const guard = buildFetchGuard({ allowPrivate: false, allowCidrs: ['127.0.0.1/32'] }, {});
/** Bytes each chunked response managed to write before the client went away. */
const written = new Map<string, number>();

function trickle(res: ServerResponse, path: string, everyMs: number, count: number): void {
  res.writeHead(200, { 'content-type': 'image/png' });
  let sent = 0;
  const timer = setInterval(() => {
    if (res.destroyed || sent >= count) {
      clearInterval(timer);
      res.end();
      return;
    }
    res.write(Buffer.from([0x89]));
    sent++;
    written.set(path, sent);
  }, everyMs);
}

function stream(res: ServerResponse, path: string, total: number): void {
  res.writeHead(200, { 'content-type': 'image/png' }); // chunked: no content-length
  const chunk = Buffer.alloc(64 * 1024, 1);
  let sent = 0;
  const pump = () => {
    while (sent < total) {
      sent += chunk.length;
      written.set(path, sent);
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end();
  };
  res.on('close', () => undefined);
  pump();
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '';
    requested.push(path);
    if (path === '/ok.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    if (path === '/missing.png') return void res.writeHead(404).end('no');
    if (path === '/trickle.png') return trickle(res, path, 20, 200);
    if (path === '/huge-declared.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(IMAGE_MAX_BYTES + 1) });
      return void res.write(PNG);
    }
    if (path === '/21mb.png') return stream(res, path, 21 * 1024 * 1024);
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('downloadBytes', () => {
  it('returns the body and the declared type', async () => {
    expect(await downloadBytes(`${base}/ok.png`, { guard, timeoutMs: 5000, maxBytes: 100 })).toEqual({ ok: true, bytes: PNG, contentType: 'image/png' });
  });

  it('bounds the whole download: a body that keeps trickling is cut at the timeout', async () => {
    const started = Date.now();
    const result = await downloadBytes(`${base}/trickle.png`, { guard, timeoutMs: 300, maxBytes: 100 });
    expect(result).toEqual({ ok: false, error: `the download of ${base}/trickle.png did not finish within 0.3 s` });
    expect(Date.now() - started).toBeLessThan(2000);
    // The server never went silent for long: only a whole-download bound stops this.
    expect(written.get('/trickle.png')).toBeGreaterThan(3);
  });

  it('refuses a declared length over the cap without reading the body', async () => {
    expect(await downloadBytes(`${base}/huge-declared.png`, { guard, timeoutMs: 5000, maxBytes: IMAGE_MAX_BYTES })).toEqual({
      ok: false,
      error: `${base}/huge-declared.png is larger than 20 MB; reading stopped there`,
    });
  });

  it('stops reading a chunked 21 MB body at the 20 MB cap', async () => {
    const result = await downloadBytes(`${base}/21mb.png`, { guard, timeoutMs: 10_000, maxBytes: IMAGE_MAX_BYTES });
    expect(result).toEqual({ ok: false, error: `${base}/21mb.png is larger than 20 MB; reading stopped there` });
  });

  it('reports an HTTP error status and a refused connection as errors', async () => {
    expect(await downloadBytes(`${base}/missing.png`, { guard, timeoutMs: 5000, maxBytes: 100 })).toEqual({ ok: false, error: `${base}/missing.png answered 404` });
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const port = (gone.address() as AddressInfo).port;
    await new Promise((resolve) => gone.close(resolve));
    const closed = await downloadBytes(`http://127.0.0.1:${port}/x.png`, { guard, timeoutMs: 5000, maxBytes: 100 });
    expect(closed).toEqual({ ok: false, error: `could not download http://127.0.0.1:${port}/x.png: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:${port}` });
  });

  it('refuses an address the guard does not open, and the server hears nothing', async () => {
    requested.length = 0;
    const strict = buildFetchGuard({ allowPrivate: false, allowCidrs: [] }, {});
    expect(await downloadBytes(`${base}/ok.png`, { guard: strict, timeoutMs: 5000, maxBytes: 100 })).toEqual({ ok: false, error: 'refused: 127.0.0.1 is loopback' });
    expect(requested).toEqual([]);
  });

  it('stops when the caller cancels', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect(await downloadBytes(`${base}/trickle.png`, { guard, timeoutMs: 10_000, maxBytes: 1000, signal: controller.signal })).toEqual({
      ok: false,
      error: 'the download was cancelled',
    });
  });
});
