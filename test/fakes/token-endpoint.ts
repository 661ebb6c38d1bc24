// A fake identity platform on loopback, for the identity-token chain: the OAuth2 v2 token endpoint
// (client secret or client assertion) with the OpenID metadata MSAL reads first, the app-platform
// managed-identity endpoint (current and legacy API versions) and the instance metadata (IMDS)
// endpoint. Every request is recorded so tests assert what went on the wire, not what a mock saw.
// MSAL insists on an https authority, so the fake can also listen with TLS (see
// `createSelfSignedCertificate`); the managed-identity endpoints are plain http, as in production.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

export type RecordedRequest = {
  readonly listener: 'http' | 'https';
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** Lower-cased names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed `application/x-www-form-urlencoded` body ({} for none). */
  readonly form: Readonly<Record<string, string>>;
};

export type IssuedToken = {
  readonly token: string;
  readonly endpoint: 'oauth2' | 'app_platform' | 'app_platform_legacy' | 'imds';
  readonly clientId: string | undefined;
  /** The scope (OAuth2) or resource (managed identity) it was issued for. */
  readonly audience: string;
  readonly expiresOnSeconds: number;
};

export type FakeTokenEndpointOptions = {
  /** Also listen with TLS (needed by MSAL for the OAuth2 endpoint). */
  readonly tls?: { readonly key: string; readonly cert: string };
  /** client id → the secret the OAuth2 endpoint accepts. */
  readonly clientSecrets?: Readonly<Record<string, string>>;
  /** Client ids that may authenticate with a `client_assertion` (the assertion is recorded, not verified). */
  readonly assertionClients?: readonly string[];
  /** The `X-IDENTITY-HEADER` value the app-platform endpoint (api-version 2019-08-01) expects. */
  readonly identityHeader?: string;
  /** The `secret` header value the legacy app-platform endpoint (api-version 2017-09-01) expects. */
  readonly msiSecret?: string;
  /** Whether a managed-identity request without a client id finds an identity. Default true. */
  readonly systemAssigned?: boolean;
  readonly userAssignedClientIds?: readonly string[];
  readonly tokenLifetimeSeconds?: number;
  /** A hostile upstream that repeats the submitted credential in its error text. */
  readonly echoCredentialsInErrors?: boolean;
};

export type FakeTokenEndpoint = {
  /** `http://127.0.0.1:<port>`: managed-identity endpoints (and OAuth2, for non-MSAL clients). */
  readonly httpUrl: string;
  /** `https://127.0.0.1:<port>` when started with `tls`: the authority host for MSAL. */
  readonly httpsUrl: string | undefined;
  readonly requests: RecordedRequest[];
  readonly issued: IssuedToken[];
  /** Held before every token answer (not metadata): for timeouts, cancellation and coalescing. */
  delayMs: number;
  tokenLifetimeSeconds: number;
  /** When set, every token endpoint answers with it (an outage). */
  outage: { readonly status: number; readonly body: unknown } | undefined;
  /** Requests to token endpoints only (metadata reads left out). */
  tokenRequests(): RecordedRequest[];
  close(): Promise<void>;
};

const OAUTH_TOKEN = /^\/([^/]+)\/oauth2\/v2\.0\/token$/;
const OPENID_CONFIG = /^\/([^/]+)\/v2\.0\/\.well-known\/openid-configuration$/;
export const APP_PLATFORM_PATH = '/msi/token';
export const IMDS_PATH = '/metadata/identity/oauth2/token';
const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

type Answer = { status: number; body: unknown };
const oauthError = (status: number, error: string, description: string): Answer => ({
  status,
  body: { error, error_description: description, error_codes: [status === 401 ? 7000215 : 900144] },
});

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export async function startTokenEndpoint(options: FakeTokenEndpointOptions = {}): Promise<FakeTokenEndpoint> {
  const requests: RecordedRequest[] = [];
  const issued: IssuedToken[] = [];
  const servers: Server[] = [];
  const delays = new Set<NodeJS.Timeout>();
  let counter = 0;

  const fake: FakeTokenEndpoint = {
    httpUrl: '',
    httpsUrl: undefined,
    requests,
    issued,
    delayMs: 0,
    tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 3600,
    outage: undefined,
    tokenRequests: () => requests.filter((r) => !OPENID_CONFIG.test(r.path)),
    close: async () => {
      for (const timer of delays) clearTimeout(timer); // held answers are dropped with their connections
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        ),
      );
    },
  };

  function issue(endpoint: IssuedToken['endpoint'], clientId: string | undefined, audience: string, tenant = 'fake-tenant'): IssuedToken {
    const nowSeconds = Math.floor(Date.now() / 1000);
    const expiresOnSeconds = nowSeconds + fake.tokenLifetimeSeconds;
    counter += 1;
    const payload = { aud: audience, iss: `https://sts.fake.test/${tenant}/`, iat: nowSeconds, exp: expiresOnSeconds, appid: clientId ?? 'system-assigned', tid: tenant, jti: `t${counter}` };
    const token = `${base64url({ alg: 'RS256', typ: 'JWT' })}.${base64url(payload)}.${randomBytes(32).toString('base64url')}`;
    const record = { token, endpoint, clientId, audience, expiresOnSeconds };
    issued.push(record);
    return record;
  }

  function echo(what: string | undefined): string {
    return options.echoCredentialsInErrors && what ? ` (received '${what}')` : '';
  }

  function oauthToken(tenant: string, form: Record<string, string>): Answer {
    if (form.grant_type !== 'client_credentials') return oauthError(400, 'unsupported_grant_type', `AADSTS70003: grant_type ${form.grant_type ?? ''} is not supported`);
    const clientId = form.client_id ?? '';
    if (!form.scope) return oauthError(400, 'invalid_request', 'AADSTS900144: the request body must contain scope');
    if (form.client_secret !== undefined) {
      if (options.clientSecrets?.[clientId] !== form.client_secret) {
        return oauthError(401, 'invalid_client', `AADSTS7000215: Invalid client secret provided${echo(form.client_secret)}.`);
      }
    } else if (form.client_assertion !== undefined) {
      if (form.client_assertion_type !== JWT_BEARER || !options.assertionClients?.includes(clientId)) {
        return oauthError(401, 'invalid_client', `AADSTS700213: No matching federated identity record found${echo(form.client_assertion)}.`);
      }
    } else {
      return oauthError(401, 'invalid_client', 'AADSTS7000216: client_assertion or client_secret is required');
    }
    const token = issue('oauth2', clientId, form.scope, tenant);
    return {
      status: 200,
      body: { token_type: 'Bearer', expires_in: fake.tokenLifetimeSeconds, ext_expires_in: fake.tokenLifetimeSeconds, access_token: token.token },
    };
  }

  function managedIdentityAnswer(token: IssuedToken): Answer {
    return {
      status: 200,
      body: {
        access_token: token.token,
        expires_on: String(token.expiresOnSeconds),
        resource: token.audience,
        token_type: 'Bearer',
        client_id: token.clientId ?? 'system-assigned-client',
      },
    };
  }

  function findIdentity(clientId: string | undefined): boolean {
    return clientId === undefined ? options.systemAssigned !== false : (options.userAssignedClientIds ?? []).includes(clientId);
  }

  function appPlatform(query: Record<string, string>, headers: Record<string, string>): Answer {
    const resource = query.resource ?? '';
    if (query['api-version'] === '2019-08-01') {
      if (headers['x-identity-header'] !== options.identityHeader) {
        return { status: 401, body: { statusCode: 401, message: `Unauthorized: missing or wrong X-IDENTITY-HEADER${echo(headers['x-identity-header'])}` } };
      }
      if (!resource) return { status: 400, body: { statusCode: 400, message: 'resource is required' } };
      if (!findIdentity(query.client_id)) return { status: 400, body: { statusCode: 400, message: 'No managed identity found for the specified client id' } };
      return managedIdentityAnswer(issue('app_platform', query.client_id, resource));
    }
    if (query['api-version'] === '2017-09-01') {
      if (headers.secret !== options.msiSecret) return { status: 401, body: { statusCode: 401, message: `Unauthorized${echo(headers.secret)}` } };
      if (!findIdentity(query.clientid)) return { status: 400, body: { statusCode: 400, message: 'No managed identity found' } };
      return managedIdentityAnswer(issue('app_platform_legacy', query.clientid, resource));
    }
    return { status: 400, body: { statusCode: 400, message: `unsupported api-version ${query['api-version'] ?? ''}` } };
  }

  function imds(query: Record<string, string>, headers: Record<string, string>): Answer {
    if (headers.metadata !== 'true') return oauthError(400, 'invalid_request', 'Required metadata header not specified');
    if (query['api-version'] !== '2018-02-01') return oauthError(400, 'invalid_request', 'Invalid or missing api-version');
    if (!query.resource) return oauthError(400, 'invalid_request', 'Required audience parameter not specified');
    if (!findIdentity(query.client_id)) return oauthError(400, 'invalid_request', 'Identity not found');
    const token = issue('imds', query.client_id, query.resource);
    const answer = managedIdentityAnswer(token);
    return { status: 200, body: { ...(answer.body as object), expires_in: String(fake.tokenLifetimeSeconds), ext_expires_in: String(fake.tokenLifetimeSeconds) } };
  }

  function route(request: RecordedRequest, baseUrl: string): Answer {
    const { method, path, query, headers, form } = request;
    const tokenMatch = OAUTH_TOKEN.exec(path);
    if (method === 'POST' && tokenMatch) return oauthToken(tokenMatch[1] ?? '', { ...form });
    if (method === 'GET' && path === APP_PLATFORM_PATH) return appPlatform({ ...query }, { ...headers });
    if (method === 'GET' && path === IMDS_PATH) return imds({ ...query }, { ...headers });
    const configMatch = OPENID_CONFIG.exec(path);
    if (method === 'GET' && configMatch) return { status: 200, body: openIdConfiguration(baseUrl, configMatch[1] ?? '') };
    return { status: 404, body: { error: 'not_found', error_description: `no route for ${method} ${path}` } };
  }

  async function handle(listener: 'http' | 'https', req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(', ') : (value ?? '')]),
    );
    const isForm = (headers['content-type'] ?? '').includes('application/x-www-form-urlencoded');
    const request: RecordedRequest = {
      listener,
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      form: isForm ? Object.fromEntries(new URLSearchParams(body)) : {},
    };
    requests.push(request);
    const baseUrl = listener === 'https' ? (fake.httpsUrl ?? '') : fake.httpUrl;
    const isMetadata = OPENID_CONFIG.test(request.path);
    if (!isMetadata && fake.delayMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          delays.delete(timer);
          resolve();
        }, fake.delayMs);
        delays.add(timer);
      });
      if (res.destroyed || req.socket.destroyed) return; // the client gave up
    }
    const answer = !isMetadata && fake.outage ? fake.outage : route(request, baseUrl);
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer.body));
  }

  const onRequest = (listener: 'http' | 'https') => (req: IncomingMessage, res: ServerResponse) => {
    handle(listener, req, res).catch(() => res.destroy());
  };

  const httpServer = createHttpServer(onRequest('http'));
  servers.push(httpServer);
  (fake as { httpUrl: string }).httpUrl = `http://127.0.0.1:${await listen(httpServer)}`;
  if (options.tls) {
    const httpsServer = createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, onRequest('https'));
    servers.push(httpsServer);
    (fake as { httpsUrl: string | undefined }).httpsUrl = `https://127.0.0.1:${await listen(httpsServer)}`;
  }
  return fake;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function openIdConfiguration(baseUrl: string, tenant: string): Record<string, unknown> {
  return {
    token_endpoint: `${baseUrl}/${tenant}/oauth2/v2.0/token`,
    authorization_endpoint: `${baseUrl}/${tenant}/oauth2/v2.0/authorize`,
    end_session_endpoint: `${baseUrl}/${tenant}/oauth2/v2.0/logout`,
    device_authorization_endpoint: `${baseUrl}/${tenant}/oauth2/v2.0/devicecode`,
    issuer: `${baseUrl}/${tenant}/v2.0`,
    jwks_uri: `${baseUrl}/${tenant}/discovery/v2.0/keys`,
    token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
    response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
    scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
    tenant_region_scope: null,
  };
}

export type SelfSignedCertificate = {
  readonly key: string;
  readonly cert: string;
  /** Key and certificate in one PEM file, as a service-principal certificate is stored. */
  readonly pemPath: string;
};

/**
 * A throwaway certificate for 127.0.0.1 made with the `openssl` command: the fake's TLS identity
 * (trusted by the test through an https agent) and a service-principal certificate.
 */
export async function createSelfSignedCertificate(dir: string, name = 'fake'): Promise<SelfSignedCertificate> {
  const keyPath = join(dir, `${name}.key`);
  const certPath = join(dir, `${name}.crt`);
  await promisify(execFile)(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyPath, '-out', certPath, '-days', '1',
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'],
    { timeout: 15_000 },
  );
  const [key, cert] = await Promise.all([readFile(keyPath, 'utf8'), readFile(certPath, 'utf8')]);
  const pemPath = join(dir, `${name}.pem`);
  await writeFile(pemPath, `${key}\n${cert}`, { mode: 0o600 });
  return { key, cert, pemPath };
}

export type FakeCli = {
  /** The arguments of every run so far, one array per run. */
  runs(): Promise<string[][]>;
};

/**
 * A stand-in for `az` or `azd` on PATH: a POSIX shell script that records its arguments and prints
 * what it is told. Only shell built-ins, so a PATH holding nothing but its directory works.
 */
export async function writeFakeCli(
  dir: string,
  name: string,
  answer: { readonly stdout?: string; readonly stderr?: string; readonly exitCode?: number; readonly hang?: boolean },
): Promise<FakeCli> {
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  const runsFile = join(dir, `${name}.runs`);
  const script = [
    '#!/bin/sh',
    `{ for arg in "$@"; do printf '%s\\n' "$arg"; done; printf '%s\\n' '--end-of-run--'; } >> ${quote(runsFile)}`,
    // A CLI stuck on a login prompt: `exec` keeps the pid, so killing it stops the wait.
    answer.hang ? 'exec /bin/sleep 60' : '',
    answer.stdout ? `printf '%s' ${quote(answer.stdout)}` : '',
    answer.stderr ? `printf '%s\\n' ${quote(answer.stderr)} >&2` : '',
    `exit ${answer.exitCode ?? 0}`,
    '',
  ].join('\n');
  await writeFile(join(dir, name), script, { mode: 0o755 });
  return {
    async runs() {
      const text = await readFile(runsFile, 'utf8').catch(() => '');
      return text
        .split('--end-of-run--\n')
        .filter((run) => run !== '')
        .map((run) => run.split('\n').slice(0, -1));
    },
  };
}

/**
 * An http URL on loopback where nothing listens: connections are refused at once. It uses
 * 127.0.0.2, where no fake of this suite ever listens (they all bind 127.0.0.1), so a port freed
 * here cannot be taken over by a server another test starts in parallel.
 */
export async function closedPortUrl(): Promise<string> {
  const server = createHttpServer();
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.2', () => resolve((server.address() as AddressInfo).port));
  });
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.2:${port}`;
}
