// The floor the gateway is measured against: a bare node:http server doing the least a webhook
// receiver must do. It reads the body (with the same 1 MiB cap), checks X-Hub-Signature-256 in
// constant time, parses the JSON, and deduplicates the delivery id in a Map (bounded, oldest
// evicted), then answers 202 with a small JSON body like the gateway's.
//
//   node bench/webhook-ingest/bare-server.mjs <secret>
//
// Prints `listening <port>` on 127.0.0.1 once ready; SIGTERM or the end of stdin stops it.
import { Buffer } from 'node:buffer';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import process from 'node:process';

const secret = process.argv[2];
if (!secret) {
  process.stderr.write('usage: bare-server.mjs <secret>\n');
  process.exit(2);
}
const MAX_BODY = 1_048_576;
const MAX_SEEN = 100_000;
const seen = new Map();
// Oldest-first eviction through a ring of keys: evicting with `seen.keys().next()` after many
// deletes makes V8 skip the deleted slots on every call, and the floor got 4× slower as a run went on.
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
    answer(res, 202, { status: 'accepted', route, event: req.headers['x-github-event'], delivery_id: id });
  });
});
// The gateway's socket settings that matter under load.
server.keepAliveTimeout = 5_000;
server.maxConnections = 1_024;
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
// The benchmark holds our stdin open: if it dies without stopping us, so do we.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
