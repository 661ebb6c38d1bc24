// A second floor beside the bare server: the least a receiver must do when its 202 promises that
// the event survives a power cut. It handles a request exactly as bare-server.mjs does (body cap,
// HMAC in constant time, JSON.parse, dedup in a bounded Map), then hands the body to a writer
// thread that appends it to a file and fdatasyncs it, with the same group commit as the gateway's
// inbox writer (what arrives during a write goes as the next batch, two batches in flight), and
// answers 202 once the fdatasync that covers the event has returned.
//
// Nothing else: no index, no dedup record on disk, no route, no checkpoint, no recovery. Any real
// durable inbox does at least this much, so the ratio of this server to the bare one bounds what
// the gateway can reach on the machine the benchmark runs on. bare-server.mjs stays as it is (the
// issue fixes the reference), which is why its request handling is repeated here, not shared.
//
//   node bench/webhook-ingest/durable-floor-server.mjs <secret> <file>
//
// The file is written from its start again once it passes 64 MB, so it stays bounded and, after
// the first lap, the fdatasync covers data only (as a WAL that is reused does). Prints
// `listening <port>` on 127.0.0.1 once ready; SIGTERM or the end of stdin stops it.
import { Buffer } from 'node:buffer';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import process from 'node:process';
import { setImmediate } from 'node:timers';
import { Worker } from 'node:worker_threads';

const [secret, file] = process.argv.slice(2);
if (!secret || !file) {
  process.stderr.write('usage: durable-floor-server.mjs <secret> <file>\n');
  process.exit(2);
}
const MAX_BODY = 1_048_576;
const MAX_SEEN = 100_000;
const MAX_IN_FLIGHT = 2;

const WRITER = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const LAP_BYTES = 64 * 1024 * 1024;
const fd = fs.openSync(workerData.file, 'w');
let offset = 0;
parentPort.on('message', ({ seq, bodies }) => {
  const parts = [];
  let size = 0;
  for (const body of bodies) {
    const header = Buffer.alloc(4);
    header.writeUInt32LE(body.byteLength, 0);
    parts.push(header, body);
    size += 4 + body.byteLength;
  }
  if (offset + size > LAP_BYTES) offset = 0;
  fs.writevSync(fd, parts, offset);
  offset += size;
  fs.fdatasyncSync(fd);
  parentPort.postMessage(seq);
});
`;
const writer = new Worker(WRITER, { eval: true, workerData: { file } });
writer.on('error', (err) => {
  process.stderr.write(`durable floor: the writer thread failed: ${err.message}\n`);
  process.exit(1);
});
let queued = [];
const inFlight = new Map();
let seq = 0;
let scheduled = false;
function send() {
  scheduled = false;
  if (inFlight.size >= MAX_IN_FLIGHT || queued.length === 0) return;
  const batch = queued;
  queued = [];
  inFlight.set(++seq, batch);
  writer.postMessage({ seq, bodies: batch.map((entry) => entry.body) });
}
writer.on('message', (done) => {
  const batch = inFlight.get(done);
  inFlight.delete(done);
  if (queued.length > 0) send();
  for (const entry of batch) entry.answer();
});
function durably(body, answer) {
  queued.push({ body, answer });
  if (!scheduled && inFlight.size < MAX_IN_FLIGHT) {
    scheduled = true;
    setImmediate(send);
  }
}

const seen = new Map();
const ring = new Array(MAX_SEEN);
let oldest = 0;

function answer(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function verified(signature, body) {
  if (typeof signature !== 'string') return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const server = createServer((req, res) => {
  const route = /^\/webhooks\/([a-z0-9_-]+)$/.exec(req.url ?? '')?.[1];
  if (req.method !== 'POST' || route === undefined) return answer(res, 404, { error: 'Not found' });
  const chunks = [];
  let size = 0;
  req.on('data', (chunk) => {
    size += chunk.length;
    if (size <= MAX_BODY) chunks.push(chunk);
  });
  req.on('end', () => {
    if (size > MAX_BODY) return answer(res, 413, { error: 'Payload too large' });
    const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
    if (!verified(req.headers['x-hub-signature-256'], body)) return answer(res, 401, { error: 'Invalid signature' });
    let payload;
    try {
      payload = JSON.parse(body.toString('utf8'));
    } catch {
      return answer(res, 400, { error: 'Malformed JSON' });
    }
    if (typeof payload !== 'object' || payload === null) return answer(res, 400, { error: 'Payload must be a JSON object' });
    const id = req.headers['x-github-delivery'];
    const key = `${route}\u0000${id}`;
    if (seen.has(key)) return answer(res, 200, { status: 'duplicate', delivery_id: id });
    if (seen.size === MAX_SEEN) {
      seen.delete(ring[oldest]);
      oldest = (oldest + 1) % MAX_SEEN;
    }
    seen.set(key, Date.now());
    ring[(oldest + seen.size - 1) % MAX_SEEN] = key;
    durably(body, () => answer(res, 202, { status: 'accepted', route, event: req.headers['x-github-event'], delivery_id: id }));
  });
});
server.keepAliveTimeout = 5_000;
server.maxConnections = 1_024;
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
process.on('SIGTERM', () => {
  server.close(() => void writer.terminate().then(() => process.exit(0)));
  server.closeAllConnections();
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
