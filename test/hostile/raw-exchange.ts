// One hostile exchange over a raw TCP socket: bytes written as given (pauses between them), then
// wait for the answers, half-close, or drop the connection. node:http's client would refuse to
// send most of what the hostile run needs (bad header names, duplicate lengths, truncated bodies).
import { connect } from 'node:net';

export type Plan = {
  /** Written in order; a number is a pause of that many ms. */
  readonly steps: ReadonlyArray<Buffer | number>;
  /**
   * After the last step: wait for the answers (default); half-close and wait ('end'); or drop the
   * connection at once, with a FIN ('destroy') or a RST ('reset'), reading nothing.
   */
  readonly then?: 'wait' | 'end' | 'destroy' | 'reset';
  /** How many complete answers end the exchange (default 1); else the server's close does. */
  readonly responses?: number;
};

/** A final status per answer; 'no answer', 'aborted' (we dropped it) or 'timeout' otherwise. */
export type Outcome = {
  readonly labels: readonly string[];
  /** delivery_id of every 202 answer, to be found in the inbox later. */
  readonly acceptedIds: readonly string[];
};

export const EXCHANGE_TIMEOUT_MS = 15_000;

type Answer = { status: number; body: string };

/** Complete answers at the start of `data` (interim 1xx answers skipped), and the bytes used. */
export function parseAnswers(data: Buffer): { answers: Answer[]; complete: boolean } {
  const answers: Answer[] = [];
  let at = 0;
  for (;;) {
    const headEnd = data.indexOf('\r\n\r\n', at);
    if (headEnd === -1) return { answers, complete: at === data.length };
    const head = data.subarray(at, headEnd).toString('latin1');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    const bodyStart = headEnd + 4;
    if (status >= 100 && status < 200) {
      at = bodyStart;
      continue;
    }
    // Without a length (Node's own 400 and 431 answers, which close the socket) the rest is the body.
    const bodyEnd = length ? bodyStart + Number(length[1]) : data.length;
    if (bodyEnd > data.length) {
      answers.push({ status, body: '' });
      return { answers, complete: false };
    }
    answers.push({ status, body: data.subarray(bodyStart, bodyEnd).toString('utf8') });
    at = bodyEnd;
    if (!length || at === data.length) return { answers, complete: true };
  }
}

function acceptedIdOf(answer: Answer): string[] {
  if (answer.status !== 202) return [];
  try {
    const id = (JSON.parse(answer.body) as { delivery_id?: unknown }).delivery_id;
    return typeof id === 'string' ? [id] : [];
  } catch {
    return [];
  }
}

export function exchange(port: number, plan: Plan): Promise<Outcome> {
  const then = plan.then ?? 'wait';
  const wanted = plan.responses ?? 1;
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let done = false;
    const finish = (fallback: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const { answers } = parseAnswers(Buffer.concat(received));
      const labels = answers.map((a) => String(a.status));
      resolve({ labels: labels.length > 0 ? labels : [fallback], acceptedIds: answers.flatMap(acceptedIdOf) });
    };
    const timer = setTimeout(() => finish('timeout'), EXCHANGE_TIMEOUT_MS);
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      const parsed = parseAnswers(Buffer.concat(received));
      if (parsed.complete && parsed.answers.length >= wanted) finish('no answer');
    });
    socket.on('close', () => finish('no answer'));
    // A reset after the server answered and closed is ordinary; what was read still counts.
    socket.on('error', () => finish('no answer'));
    socket.on('connect', () => {
      void (async () => {
        for (const step of plan.steps) {
          if (done) return;
          if (typeof step === 'number') await new Promise((r) => setTimeout(r, step));
          else socket.write(step);
        }
        if (then === 'end') socket.end();
        else if (then === 'destroy') finish('aborted');
        else if (then === 'reset') {
          socket.resetAndDestroy();
          finish('aborted');
        }
      })();
    });
  });
}
