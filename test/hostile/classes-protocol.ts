// Hostile classes about how it is sent: headers, methods, HTTP versions, pipelining, and bodies
// that arrive slowly, truncated or not at all.
import { pick, type Ctx, type HostileClass } from './class-types.js';
import type { Plan } from './raw-exchange.js';
import { pullRequestPayload, rawRequest, signedHeaders, type Header, type RawRequest } from './requests.js';

/** The gateway's body_timeout in the hostile run, in ms (config: 1 s). */
export const BODY_TIMEOUT_MS = 1_000;

function validRequest(ctx: Ctx, i: number, options: Partial<RawRequest> = {}): Buffer {
  const body = pullRequestPayload(i);
  return rawRequest({ path: `/webhooks/${ctx.route}`, headers: signedHeaders(body, ctx.secret, ctx.delivery()), body, ...options });
}

/** Headers and the first `sent` bytes of a signed body that declares its full length. */
function partial(ctx: Ctx, i: number, sent: number): Buffer {
  const whole = validRequest(ctx, i);
  return whole.subarray(0, whole.indexOf('\r\n\r\n') + 4 + sent);
}

const health: HostileClass = {
  name: 'health checks',
  count: 100,
  allowed: ['200'],
  plan: () => ({ steps: [rawRequest({ method: 'GET', path: '/health' })] }),
};

const headers: HostileClass = {
  name: 'huge, duplicate or invalid headers',
  count: 400,
  allowed: ['202', '400', '401', '431'],
  plan: (i, ctx) => {
    const path = `/webhooks/${ctx.route}`;
    const body = pullRequestPayload(i);
    const signed = signedHeaders(body, ctx.secret, ctx.delivery());
    const many = (n: number, size: number): Header[] => Array.from({ length: n }, (_, k) => [`X-Filler-${k}`, 'f'.repeat(size)] as const);
    const variants: RawRequest[] = [
      { path, headers: [['X-Big', 'a'.repeat(20_000)]], body },
      { path, headers: many(150, 10), body },
      { path, defaults: false, headers: [['Host', 'x'], ['Content-Length', '2'], ['Content-Length', '3']], body: '{}' },
      { path, headers: [...signed, signed[3]!], body },
      { path, headers: [['X-Nul', 'a\0b']], body },
      { path, headers: [['Bad Name', 'a']], body },
      { path, headers: [['X-No-Colon-Here', '']], body },
      { path, headers: [['Transfer-Encoding', 'chunked']], body: '0\r\n\r\n' },
      { path, headers: [['X-Folded', 'a\r\n b']], body },
      { path, headers: [...signed, ['X-GitHub-Delivery', ctx.delivery()]], body },
      { path, headers: many(60, 1_000), body },
      { path, headers: [...signed.filter(([name]) => name !== 'X-GitHub-Event'), ['X-GitHub-Event', '\xff\xfe']], body },
    ];
    const variant = pick(variants, i);
    // A header "name" without a colon is written raw: "X-No-Colon-Here: " would be valid.
    if (i % variants.length === 6) return { steps: [Buffer.from(rawRequest(variant).toString('latin1').replace('X-No-Colon-Here: ', 'X-No-Colon-Here'), 'latin1')] };
    return { steps: [rawRequest(variant)] };
  },
};

const methods: HostileClass = {
  name: 'wrong methods',
  count: 300,
  // CONNECT is not served at all: Node closes the socket.
  allowed: ['405', '400', 'no answer'],
  plan: (i, ctx) => {
    const [method, path] = pick<readonly [string, string]>(
      [['GET', `/webhooks/${ctx.route}`], ['PUT', `/webhooks/${ctx.route}`], ['DELETE', `/webhooks/${ctx.route}`], ['PATCH', `/webhooks/${ctx.route}`], ['OPTIONS', `/webhooks/${ctx.route}`], ['HEAD', `/webhooks/${ctx.route}`], ['TRACE', `/webhooks/${ctx.route}`], ['POST', '/health'], ['FOO', `/webhooks/${ctx.route}`], ['CONNECT', '127.0.0.1:443']],
      i,
    );
    return { steps: [rawRequest({ method, path, body: pullRequestPayload(i) })] };
  },
};

const slowBodies: HostileClass = {
  name: 'slow bodies (short)',
  count: 100,
  allowed: ['202', '408'],
  plan: (i, ctx) => {
    const whole = validRequest(ctx, i);
    const third = Math.floor(whole.length / 3);
    // Either finished in time, a third every 100 ms, or stalled past body_timeout.
    if (i % 2 === 0) return { steps: [whole.subarray(0, third), 100, whole.subarray(third, 2 * third), 100, whole.subarray(2 * third)] };
    return { steps: [partial(ctx, i, 10), BODY_TIMEOUT_MS + 300] };
  },
};

const truncated: HostileClass = {
  name: 'truncated bodies',
  count: 250,
  allowed: ['400', '408', 'no answer'],
  plan: (i, ctx) => {
    const path = `/webhooks/${ctx.route}`;
    return pick<Plan>(
      [
        { steps: [partial(ctx, i, 20)], then: 'end' },
        { steps: [rawRequest({ path, defaults: false, headers: [['Host', 'x'], ['Transfer-Encoding', 'chunked']] }), Buffer.from(`64\r\n${'z'.repeat(50)}`)], then: 'end' },
        { steps: [partial(ctx, i, 0)], then: 'end' },
        { steps: [Buffer.from(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Le`)], then: 'end' },
      ],
      i,
    );
  },
};

const http10: HostileClass = {
  name: 'HTTP/1.0 and HTTP/0.9-style requests',
  count: 300,
  allowed: ['200', '202', '400', '401'],
  plan: (i, ctx) =>
    pick<Plan>(
      [
        { steps: [validRequest(ctx, i, { version: 'HTTP/1.0', close: false })] },
        { steps: [rawRequest({ method: 'GET', path: '/health', version: 'HTTP/1.0', close: false })] },
        { steps: [rawRequest({ path: `/webhooks/${ctx.route}`, version: 'HTTP/1.0', defaults: false, close: false, body: pullRequestPayload(i) })], then: 'end' },
        { steps: [Buffer.from('GET /health\r\n\r\n')] },
        { steps: [validRequest(ctx, i, { version: 'HTTP/1.0', close: false, headers: [['Connection', 'keep-alive']] })] },
      ],
      i,
    ),
};

const pipelining: HostileClass = {
  name: 'pipelining',
  count: 300,
  allowed: ['200', '202', '401', '404'],
  plan: (i, ctx) => {
    const keep = { close: false } as const;
    const healthCheck = (close: boolean) => rawRequest({ method: 'GET', path: '/health', close });
    const unsigned = rawRequest({ path: `/webhooks/${ctx.route}`, body: pullRequestPayload(i), ...keep });
    const batches: Buffer[][] = [
      [healthCheck(false), validRequest(ctx, i, keep), unsigned, healthCheck(true)],
      [validRequest(ctx, i, keep), validRequest(ctx, i + 1, keep), validRequest(ctx, i + 2, keep), healthCheck(true)],
      // The 404 closes the connection: what follows it is never answered.
      [healthCheck(false), rawRequest({ path: '/webhooks/nope', body: '{}', ...keep }), healthCheck(true)],
    ];
    const batch = pick(batches, i);
    return { steps: [Buffer.concat(batch)], responses: batch.length };
  },
};

const disconnects: HostileClass = {
  name: 'abrupt disconnects mid-body',
  count: 300,
  allowed: ['aborted'],
  plan: (i, ctx) =>
    pick<Plan>(
      [
        { steps: [partial(ctx, i, 30)], then: 'destroy' },
        { steps: [partial(ctx, i, 30)], then: 'reset' },
        { steps: [partial(ctx, i, 0)], then: 'reset' },
        { steps: [Buffer.from(`POST /webhooks/${ctx.route} HTTP/1.1\r\nHost: x\r\nContent-Length: 100`)], then: 'reset' },
        { steps: [partial(ctx, i, 30), 20], then: 'destroy' },
        { steps: [rawRequest({ path: `/webhooks/${ctx.route}`, body: Buffer.alloc(65_536, 'q') })], then: 'reset' },
      ],
      i,
    ),
};

export const PROTOCOL_CLASSES: readonly HostileClass[] = [health, headers, methods, slowBodies, truncated, http10, pipelining, disconnects];
