// Stream benchmark: a long completion (20k small deltas by default) from the fake upstream,
// read through each wire client, against reading the same bytes raw in the same run.
// Reports deltas/s, the client's share of raw throughput, and the latency it adds to the first
// delta. Rounds interleave raw and client reads so machine noise hits both alike.
//
//   npm run bench:stream -- [--deltas N] [--rounds N] [--strict]
//
// Targets: the client keeps ≥ 50% of raw throughput and adds < 2 ms to the first delta.
import { performance } from 'node:perf_hooks';
import { Agent, fetch } from 'undici';
import { startFakeUpstream } from '../test/fakes/upstream.js';
import { streamModel, buildWireBody } from '../src/providers/wire/model-client.js';
import type { ApiMode, ModelRequest } from '../src/providers/wire/types.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  const value = i >= 0 ? Number(args[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) {
    process.stderr.write(`bench: ${name} takes a positive integer\n`);
    process.exit(2);
  }
  return value;
};
const deltas = option('--deltas', 20_000);
const rounds = option('--rounds', 7);
const strict = args.includes('--strict');

const fake = await startFakeUpstream();
const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
const timeouts = { connectMs: 5000, firstByteMs: 30_000, idleMs: 30_000 };
const MODES: ApiMode[] = ['chat_completions', 'codex_responses', 'anthropic_messages'];
const PATHS: Record<ApiMode, string> = {
  chat_completions: '/v1/chat/completions',
  codex_responses: '/v1/responses',
  anthropic_messages: '/v1/messages',
};
fake.script('bench', { kind: 'text', deltas: Array.from({ length: deltas }, (_, i) => `w${i % 10} `) });
// First-delta latency is measured on short answers: on the long one it drowns in the server's
// own time to produce 20k frames.
const SHORT = 20;
fake.script('bench-short', { kind: 'text', deltas: Array.from({ length: SHORT }, (_, i) => `w${i} `) });
const long: ModelRequest = { model: 'bench', messages: [{ role: 'user', content: 'go' }], maxOutputTokens: 100_000 };
const short: ModelRequest = { ...long, model: 'bench-short' };

type Sample = { firstMs: number; totalMs: number };

async function raw(apiMode: ApiMode, request: ModelRequest): Promise<Sample> {
  const start = performance.now();
  const response = await fetch(`${fake.url}${PATHS[apiMode]}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(buildWireBody(request, { apiMode })),
    dispatcher,
  });
  let firstMs = -1;
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    const { done } = await reader.read();
    if (done) break;
    if (firstMs < 0) firstMs = performance.now() - start;
  }
  return { firstMs, totalMs: performance.now() - start };
}

async function client(apiMode: ApiMode, request: ModelRequest, expected: number): Promise<Sample> {
  const start = performance.now();
  let firstMs = -1;
  let count = 0;
  for await (const event of streamModel(request, { apiMode, url: `${fake.url}${PATHS[apiMode]}`, headers: {}, timeouts, dispatcher, label: apiMode })) {
    if (event.type === 'text_delta') {
      if (firstMs < 0) firstMs = performance.now() - start;
      count++;
    }
    if (event.type === 'error') throw new Error(event.error.message);
  }
  if (count !== expected) throw new Error(`${apiMode}: expected ${expected} deltas, got ${count}`);
  return { firstMs, totalMs: performance.now() - start };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

process.stdout.write(
  `stream: ${deltas} deltas × ${rounds} interleaved rounds for throughput, first delta over ${Math.max(rounds * 4, 20)} short answers; node ${process.versions.node}\n`,
);
let missed = 0;
const latencyRounds = Math.max(rounds * 4, 20);
for (const apiMode of MODES) {
  await raw(apiMode, long); // warm up the connection and the JIT
  await client(apiMode, long, deltas);
  const raws: Sample[] = [];
  const clients: Sample[] = [];
  for (let r = 0; r < rounds; r++) {
    raws.push(await raw(apiMode, long));
    clients.push(await client(apiMode, long, deltas));
  }
  const firstGaps: number[] = [];
  for (let r = 0; r < latencyRounds; r++) {
    const rawFirst = (await raw(apiMode, short)).firstMs;
    firstGaps.push((await client(apiMode, short, SHORT)).firstMs - rawFirst);
  }
  const rawTotal = median(raws.map((s) => s.totalMs));
  const clientTotal = median(clients.map((s) => s.totalMs));
  const share = rawTotal / clientTotal;
  const addedFirst = median(firstGaps);
  const ok = share >= 0.5 && addedFirst < 2;
  if (!ok) missed++;
  process.stdout.write(
    `  ${apiMode.padEnd(19)} client ${Math.round(deltas / (clientTotal / 1000)).toLocaleString('en').padStart(9)} deltas/s` +
      `  raw ${Math.round(deltas / (rawTotal / 1000)).toLocaleString('en').padStart(9)} deltas/s` +
      `  share ${(share * 100).toFixed(0).padStart(3)}%  first delta ${addedFirst >= 0 ? '+' : ''}${addedFirst.toFixed(2)} ms` +
      `  ${ok ? 'ok' : 'MISSED'} (targets ≥ 50%, < 2 ms)\n`,
  );
}
await fake.close();
await dispatcher.close();
process.exitCode = strict && missed > 0 ? 1 : 0;
