// Hostile classes about what is sent: signatures, bodies, content types, routes. Most are signed
// with the right secret, so they reach the check they are aimed at.
import { MAX_BODY_BYTES as MAX_BODY, pick, type Ctx, type HostileClass } from './class-types.js';
import type { Plan } from './raw-exchange.js';
import { nested, pullRequestPayload, rawRequest, signature, signedHeaders, type Header } from './requests.js';

/** One request with a body signed with the route's secret. */
function signedPost(ctx: Ctx, body: Buffer | string, options: { path?: string; contentType?: string } = {}): Plan {
  const headers = signedHeaders(body, ctx.secret, ctx.delivery(), options.contentType);
  return { steps: [rawRequest({ path: options.path ?? `/webhooks/${ctx.route}`, headers, body })] };
}

const valid: HostileClass = {
  name: 'valid signed events',
  count: 800,
  allowed: ['202'],
  plan: (i, ctx) => {
    const body = pullRequestPayload(i);
    if (i % 4 !== 3) return signedPost(ctx, body);
    // GitLab's plain token, its event header and its delivery UUID.
    const headers: Header[] = [['Content-Type', 'application/json'], ['X-Gitlab-Token', ctx.secret], ['X-Gitlab-Event', 'Merge Request Hook'], ['X-Gitlab-Event-UUID', ctx.delivery()]];
    return { steps: [rawRequest({ path: `/webhooks/${ctx.route}`, headers, body })] };
  },
};

const replays: HostileClass = {
  name: 'replayed deliveries',
  count: 100,
  allowed: ['200'],
  plan: (_i, ctx) => {
    const body = pullRequestPayload(0);
    return { steps: [rawRequest({ path: `/webhooks/${ctx.route}`, headers: signedHeaders(body, ctx.secret, ctx.seedDelivery), body })] };
  },
};

const badSignatures: HostileClass = {
  name: 'bad or missing signatures',
  count: 500,
  allowed: ['401'],
  plan: (i, ctx) => {
    const body = pullRequestPayload(i);
    const right = signature(body, ctx.secret);
    const variants: Header[][] = [
      [],
      [['X-Hub-Signature-256', signature(body, 'not-the-secret-at-all')]],
      [['X-Hub-Signature-256', `sha256=${'zz'.repeat(32)}`]],
      [['X-Hub-Signature-256', `sha1=${right.slice(7, 47)}`]],
      [['X-Hub-Signature-256', '']],
      [['X-Hub-Signature-256', `sha256=${'ab'.repeat(5_000)}`]],
      [['X-Hub-Signature-256', right.slice(0, -2)]],
      [['X-Hub-Signature-256', signature(`${body} `, ctx.secret)]],
      [['X-Gitlab-Token', `${ctx.secret}x`]],
      [['X-Hub-Signature-256', signature(body, 'wrong')], ['X-Gitlab-Token', ctx.secret]],
    ];
    const headers: Header[] = [['Content-Type', 'application/json'], ['X-GitHub-Delivery', ctx.delivery()], ...pick(variants, i)];
    return { steps: [rawRequest({ path: `/webhooks/${ctx.route}`, headers, body })] };
  },
};

const oversized: HostileClass = {
  name: 'oversized bodies',
  count: 250,
  // A refusal before the body is read may reach the client as a reset instead of the 413.
  allowed: ['413', '400', 'no answer'],
  plan: (i, ctx) => {
    const path = `/webhooks/${ctx.route}`;
    const big = Buffer.alloc(MAX_BODY + 1_024, 'x');
    const chunk = Buffer.alloc(65_536, 'y');
    const chunked = Buffer.concat([chunk.length.toString(16), '\r\n', chunk, '\r\n'].map((part) => Buffer.from(part)));
    return pick<Plan>(
      [
        { steps: [rawRequest({ path, defaults: false, headers: [['Host', 'x'], ['Content-Length', String(MAX_BODY * 4)]] })] },
        { steps: [rawRequest({ path, body: big })] },
        { steps: [rawRequest({ path, defaults: false, headers: [['Host', 'x'], ['Transfer-Encoding', 'chunked']] }), ...Array<Buffer>(6).fill(chunked)] },
        { steps: [rawRequest({ path, defaults: false, headers: [['Host', 'x'], ['Content-Length', '99999999999999999999999']], body: 'abc' })] },
      ],
      i,
    );
  },
};

const malformedJson: HostileClass = {
  name: 'malformed JSON',
  count: 400,
  allowed: ['400'],
  plan: (i, ctx) => {
    const bodies = ['{"action":', '{"a":1}garbage', '[1,2]', '"text"', '42', 'null', '', '{a:1}', "{'a':1}", '{"a":1,}', 'undefined', '{"a":NaN}'];
    if (i % 13 === 12) return signedPost(ctx, 'foo=bar', { contentType: 'application/x-www-form-urlencoded' });
    return signedPost(ctx, pick(bodies, i));
  },
};

const contentTypes: HostileClass = {
  name: 'wrong content types',
  count: 250,
  // Anything but form encoding is read as JSON (docs/webhooks.md), so a JSON body may be accepted.
  allowed: ['202', '400'],
  plan: (i, ctx) => {
    const body = pullRequestPayload(i);
    const types = ['text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16', '', 'image/png', 'application/json, text/html'];
    if (i % 9 === 8) return signedPost(ctx, `payload=${encodeURIComponent(body)}`, { contentType: 'application/x-www-form-urlencoded' });
    if (i % 9 === 7) {
      const headers = signedHeaders(body, ctx.secret, ctx.delivery()).filter(([name]) => name !== 'Content-Type');
      return { steps: [rawRequest({ path: `/webhooks/${ctx.route}`, headers, body })] };
    }
    return signedPost(ctx, body, { contentType: pick(types, i) });
  },
};

const invalidUtf8: HostileClass = {
  name: 'invalid UTF-8',
  count: 250,
  allowed: ['400'],
  plan: (i, ctx) => {
    const bad = [[0xff, 0xfe], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xe9], [0xf8, 0x88, 0x80, 0x80, 0x80]];
    const body = Buffer.concat([Buffer.from('{"title":"'), Buffer.from(pick(bad, i)), Buffer.from('"}')]);
    if (i % 7 === 6) return { steps: [Buffer.concat([Buffer.from('POST /webhooks/'), Buffer.from([0xff, 0xfe]), Buffer.from(' HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}')])] };
    return signedPost(ctx, body);
  },
};

// At most 20,000 levels (40 KB). Deeper is refused alike, but JSON.parse builds every level before
// the depth check: a 100,000-level body briefly costs the gateway tens of MB (only a sender that
// holds the secret gets that far), which would make the RSS bound below a matter of luck.
const deepNesting: HostileClass = {
  name: 'deep JSON nesting',
  count: 200,
  allowed: ['400'],
  plan: (i, ctx) =>
    signedPost(ctx, pick([nested(101, 'object'), `{"a":${nested(20_000, 'array')}}`, nested(1_000, 'object'), nested(5_000, 'array'), `{"a":${nested(200, 'array')}}`], i)),
};

const unknownRoutes: HostileClass = {
  name: 'unknown routes',
  count: 300,
  allowed: ['404', '431'],
  plan: (i, ctx) => {
    const paths = [`/webhooks/nope-${i}`, `/webhooks/${'r'.repeat(3_000)}`, '/webhooks/%E2%98%83', `/webhooks/${ctx.route.toUpperCase()}`, '/webhooks/', `/webhooks/${ctx.route}/`, `/webhook/${ctx.route}`, '/', '/favicon.ico', `/webhooks/${'x'.repeat(20_000)}`];
    return signedPost(ctx, pullRequestPayload(i), { path: pick(paths, i) });
  },
};

const pathTraversal: HostileClass = {
  name: 'path traversal in route names',
  count: 200,
  // Signed with the real secret: only a route-name check that let these through could accept one.
  allowed: ['404', '400'],
  plan: (i, ctx) => {
    const r = ctx.route;
    const paths = ['/webhooks/..%2F..%2Fetc%2Fpasswd', `/webhooks/../webhooks/${r}`, '/webhooks/%2e%2e', `/webhooks/${r}%2F..%2F${r}`, `/webhooks/..%5c..%5c${r}`, '/webhooks/%252e%252e', `/webhooks/${r}%00`, '/webhooks/%ZZ', `/../webhooks/${r}`, `http://127.0.0.1/webhooks/${r}`, `//webhooks/${r}`, `/webhooks//${r}`, `/webhooks/${r}/..`, '/webhooks/.', `/webhooks/%2F${r}`];
    return signedPost(ctx, pullRequestPayload(i), { path: pick(paths, i) });
  },
};

export const PAYLOAD_CLASSES: readonly HostileClass[] = [valid, replays, badSignatures, oversized, malformedJson, contentTypes, invalidUtf8, deepNesting, unknownRoutes, pathTraversal];
