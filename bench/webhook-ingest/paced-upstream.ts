// The model behind the gateway's agent runs: the project's fake upstream, with a small relay in
// front that paces its SSE frames. The fake sends a scripted answer in one burst; a real model
// streams it over seconds, and that is the load the benchmark needs (4 runs reading a stream while
// webhooks arrive). The relay forwards every request to the fake, splits the answer into SSE
// frames and writes one frame every `paceMs`.
//
// Two models are scripted: GATEWAY_MODEL (the gateway's main model), switched between a hang
// (the run holds its worker without CPU) and a long paced answer; and SINK_MODEL, always a long
// paced answer, read by the stand-in process during the bare server's streaming phase.
import { createServer, request as httpRequest, Agent, type IncomingMessage, type ServerResponse, type ClientRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFakeUpstream } from '../../test/fakes/upstream.js';

export const GATEWAY_MODEL = 'bench-m';
export const SINK_MODEL = 'bench-sink';

export type GatewayMode = 'hang' | 'stream';
type Who = 'gateway' | 'sink' | 'other';

type Relayed = {
  readonly who: Who;
  readonly mode: GatewayMode;
  readonly res: ServerResponse;
  upstream?: ClientRequest;
  frames: string[];
  pending: string;
  sent: number;
  ended: boolean;
  timer?: NodeJS.Timeout;
};

export type PacedUpstream = {
  /** Base URL of the relay (append /v1 for an OpenAI-style provider). */
  readonly url: string;
  readonly paceMs: number;
  /** Changes what the gateway's next model calls get, and cuts its open ones so they are made again. */
  setGatewayMode(mode: GatewayMode): void;
  /** Closes the sink's open streams. */
  cutSink(): void;
  /** Open relayed answers from `who` in `mode` that have sent at least `minFrames` frames. */
  open(who: 'gateway' | 'sink', mode: GatewayMode, minFrames?: number): number;
  /** Frames written so far, per caller (for deltas/s over a phase). */
  framesSent(who: 'gateway' | 'sink'): number;
  /** Model requests seen, per caller. */
  requests(who: 'gateway' | 'sink' | 'other'): number;
  close(): Promise<void>;
};

/** `streamSeconds`: how long one paced answer lasts (longer than any phase). */
export async function startPacedUpstream(options: { paceMs: number; streamSeconds: number }): Promise<PacedUpstream> {
  const { paceMs } = options;
  const fake = await startFakeUpstream();
  const deltaCount = Math.ceil((options.streamSeconds * 1000) / paceMs);
  const long = { kind: 'text' as const, deltas: Array.from({ length: deltaCount }, (_, i) => `token${i % 100} `), usage: { input: 2400, output: deltaCount } };
  const hang = { kind: 'hang' as const, deltas: [] };
  fake.script(SINK_MODEL, long);
  let gatewayMode: GatewayMode = 'hang';
  fake.script(GATEWAY_MODEL, hang);

  const live = new Set<Relayed>();
  const frames = { gateway: 0, sink: 0 };
  const seen = { gateway: 0, sink: 0, other: 0 };
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const target = new URL(fake.url);

  const finish = (r: Relayed) => {
    clearTimeout(r.timer);
    live.delete(r);
  };
  const cut = (r: Relayed) => {
    finish(r);
    r.upstream?.destroy();
    r.res.destroy();
  };
  const tick = (r: Relayed) => {
    r.timer = undefined;
    const frame = r.frames.shift();
    if (frame !== undefined) {
      r.res.write(frame);
      r.sent++;
      if (r.who !== 'other') frames[r.who]++;
    }
    if (r.frames.length > 0) r.timer = setTimeout(tick, paceMs, r);
    else if (r.ended) {
      finish(r);
      r.res.end();
    }
  };
  const onUpstreamData = (r: Relayed, chunk: Buffer) => {
    r.pending += chunk.toString('utf8');
    let at: number;
    while ((at = r.pending.indexOf('\n\n')) >= 0) {
      r.frames.push(r.pending.slice(0, at + 2));
      r.pending = r.pending.slice(at + 2);
    }
    if (r.timer === undefined && r.frames.length > 0) r.timer = setTimeout(tick, r.sent === 0 ? 0 : paceMs, r);
  };

  function relay(req: IncomingMessage, res: ServerResponse, raw: Buffer): void {
    let model = '';
    try {
      const named = (JSON.parse(raw.toString('utf8')) as { model?: unknown }).model;
      model = typeof named === 'string' ? named : '';
    } catch {
      // not JSON: forwarded as it is, the fake answers it
    }
    const who: Who = model === GATEWAY_MODEL ? 'gateway' : model === SINK_MODEL ? 'sink' : 'other';
    seen[who]++;
    const r: Relayed = { who, mode: who === 'sink' ? 'stream' : gatewayMode, res, frames: [], pending: '', sent: 0, ended: false };
    live.add(r);
    res.on('close', () => {
      if (live.has(r)) cut(r);
    });
    const headers = { ...req.headers, host: target.host, 'content-length': String(raw.length) };
    delete headers['transfer-encoding']; // the body is forwarded whole, with its length
    const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent }, (answer) => {
      const sse = String(answer.headers['content-type'] ?? '').startsWith('text/event-stream');
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      if (!sse) {
        answer.pipe(res);
        answer.on('end', () => finish(r));
        return;
      }
      res.flushHeaders();
      answer.on('data', (chunk: Buffer) => onUpstreamData(r, chunk));
      answer.on('end', () => {
        r.ended = true;
        if (r.pending !== '') r.frames.push(r.pending);
        if (r.timer === undefined) tick(r);
      });
    });
    r.upstream = upstream;
    upstream.on('error', () => cut(r));
    upstream.end(raw);
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => relay(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    paceMs,
    setGatewayMode(mode) {
      gatewayMode = mode;
      fake.script(GATEWAY_MODEL, mode === 'hang' ? hang : long);
      for (const r of [...live]) if (r.who === 'gateway' && r.mode !== mode) cut(r);
    },
    cutSink() {
      for (const r of [...live]) if (r.who === 'sink') cut(r);
    },
    open(who, mode, minFrames = 1) {
      let n = 0;
      for (const r of live) if (r.who === who && r.mode === mode && r.sent >= minFrames) n++;
      return n;
    },
    framesSent: (who) => frames[who],
    requests: (who) => seen[who],
    async close() {
      for (const r of [...live]) cut(r);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
      await fake.close();
    },
  };
}
