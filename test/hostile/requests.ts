// Raw HTTP/1.x requests as bytes, well-formed or not, for the hostile run's classes.
import { createHmac } from 'node:crypto';

export type Header = readonly [name: string, value: string];

export type RawRequest = {
  readonly method?: string;
  readonly path: string;
  /** 'HTTP/1.1' unless given; '' sends an HTTP/0.9-style request line without a version. */
  readonly version?: string;
  readonly headers?: readonly Header[];
  readonly body?: Buffer | string;
  /** Adds Host and Content-Length (of the body) unless false. */
  readonly defaults?: boolean;
  /** Adds Connection: close unless false (pipelined requests keep the connection). */
  readonly close?: boolean;
};

export function rawRequest(request: RawRequest): Buffer {
  const body = typeof request.body === 'string' ? Buffer.from(request.body) : (request.body ?? Buffer.alloc(0));
  const version = request.version ?? 'HTTP/1.1';
  const line = `${request.method ?? 'POST'} ${request.path}${version === '' ? '' : ` ${version}`}\r\n`;
  const defaults: Header[] = request.defaults === false ? [] : [['Host', '127.0.0.1'], ['Content-Length', String(body.length)]];
  const close: Header[] = request.close === false ? [] : [['Connection', 'close']];
  const head = [...defaults, ...close, ...(request.headers ?? [])].map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return Buffer.concat([Buffer.from(`${line}${head}\r\n`, 'latin1'), body]);
}

export function signature(body: Buffer | string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** GitHub's headers for a body signed with `secret` (the HMAC is over the bytes as sent). */
export function signedHeaders(body: Buffer | string, secret: string, delivery: string, contentType = 'application/json'): Header[] {
  return [
    ['Content-Type', contentType],
    ['X-GitHub-Event', 'pull_request'],
    ['X-GitHub-Delivery', delivery],
    ['X-Hub-Signature-256', signature(body, secret)],
  ];
}

export function pullRequestPayload(i: number): string {
  return JSON.stringify({ action: 'opened', number: i, pull_request: { title: `hostile run ${i}` }, repository: { full_name: 'octo/hostile' } });
}

/** `depth` nested arrays or objects around a value: `[[[1]]]` or `{"a":{"a":1}}`. */
export function nested(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}
