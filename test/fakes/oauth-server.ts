// A fake OAuth 2.0 authorization server on loopback for `iris auth login` and token refresh: the
// device authorization endpoint (RFC 8628 §3.1) and the token endpoint for the device-code and
// refresh-token grants, over real HTTP. A test plays the user: `approve(userCode)` or
// `deny(userCode)` while the CLI polls. Poll answers can be scripted (pending, slow_down, denied,
// expired), and every request is recorded, so tests assert what went on the wire.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const DEVICE_PATH = '/oauth/device/code';
export const TOKEN_PATH = '/oauth/token';
export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export type RecordedOAuthRequest = {
  readonly method: string;
  readonly path: string;
  /** Lower-cased names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed form body. */
  readonly form: Readonly<Record<string, string>>;
};

/** A scripted answer to one device-code poll, before approval is looked at. */
export type PollOutcome = 'pending' | 'slow_down' | 'denied' | 'expired';

export type IssuedTokens = { readonly accessToken: string; readonly refreshToken: string | undefined; readonly grant: 'device_code' | 'refresh_token' };

export type DeviceGrant = {
  readonly deviceCode: string;
  readonly userCode: string;
  readonly clientId: string;
  readonly scope: string | undefined;
  state: 'pending' | 'approved' | 'denied' | 'used';
};

export type FakeOAuthOptions = {
  /** Client ids the server knows; any id when absent. */
  readonly clientIds?: readonly string[];
  /** The `interval` it answers with (seconds); default 0 so that tests poll at full speed. */
  readonly interval?: number;
  /** The device code's `expires_in` (seconds). */
  readonly expiresIn?: number;
};

export type FakeOAuthServer = {
  readonly url: string;
  readonly requests: RecordedOAuthRequest[];
  readonly devices: DeviceGrant[];
  readonly issued: IssuedTokens[];
  /** The `expires_in` of issued access tokens; null leaves it out of the answer. */
  tokenLifetimeSeconds: number | null;
  /** Whether token answers carry a refresh token. */
  issueRefreshTokens: boolean;
  /** Answers for the next device-code polls, one each, before approval is looked at. */
  scriptPolls(...outcomes: PollOutcome[]): void;
  /** Resolves with the next device authorization issued (or the latest one not yet awaited). */
  nextDevice(): Promise<DeviceGrant>;
  approve(userCode: string): void;
  deny(userCode: string): void;
  /** Makes every refresh token unknown (as a revoked grant). */
  revokeRefreshTokens(): void;
  tokenRequests(grant?: 'device_code' | 'refresh_token'): RecordedOAuthRequest[];
  close(): Promise<void>;
};

type Answer = { status: number; body: unknown };
const oauthError = (error: string, description?: string, status = 400): Answer => ({
  status,
  body: { error, ...(description ? { error_description: description } : {}) },
});

const token = (prefix: string) => `${prefix}-${randomBytes(12).toString('hex')}`;

function userCode(): string {
  const letters = 'BCDFGHJKLMNPQRSTVWXZ';
  const bytes = randomBytes(8);
  const chars = [...bytes].map((b) => letters[b % letters.length]);
  return `${chars.slice(0, 4).join('')}-${chars.slice(4).join('')}`;
}

async function readForm(req: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
}

export async function startFakeOAuthServer(options: FakeOAuthOptions = {}): Promise<FakeOAuthServer> {
  const requests: RecordedOAuthRequest[] = [];
  const devices: DeviceGrant[] = [];
  const issued: IssuedTokens[] = [];
  const script: PollOutcome[] = [];
  const expiresAt = new Map<string, number>();
  const refreshTokens = new Map<string, string>(); // refresh token → client id
  const waiters: Array<(grant: DeviceGrant) => void> = [];
  let awaited = 0;
  let url = '';

  const knownClient = (id: string | undefined) => id !== undefined && id !== '' && (!options.clientIds || options.clientIds.includes(id));

  function issue(grant: IssuedTokens['grant'], clientId: string, scope: string | undefined): Answer {
    const accessToken = token('fake-at');
    const refreshToken = fake.issueRefreshTokens ? token('fake-rt') : undefined;
    if (refreshToken) refreshTokens.set(refreshToken, clientId);
    issued.push({ accessToken, refreshToken, grant });
    return {
      status: 200,
      body: {
        access_token: accessToken,
        token_type: 'Bearer',
        ...(fake.tokenLifetimeSeconds !== null ? { expires_in: fake.tokenLifetimeSeconds } : {}),
        ...(refreshToken ? { refresh_token: refreshToken } : {}),
        ...(scope ? { scope } : {}),
      },
    };
  }

  function deviceAuthorization(form: Record<string, string>): Answer {
    if (!knownClient(form.client_id)) return oauthError('invalid_client', 'unknown client', 401);
    const grant: DeviceGrant = { deviceCode: token('fake-dc'), userCode: userCode(), clientId: form.client_id!, scope: form.scope, state: 'pending' };
    const expiresIn = options.expiresIn ?? 600;
    devices.push(grant);
    expiresAt.set(grant.deviceCode, Date.now() + expiresIn * 1000);
    if (waiters.length > 0 && awaited < devices.length) {
      awaited = devices.length;
      waiters.shift()?.(grant);
    }
    return {
      status: 200,
      body: {
        device_code: grant.deviceCode,
        user_code: grant.userCode,
        verification_uri: `${url}/device`,
        verification_uri_complete: `${url}/device?user_code=${grant.userCode}`,
        expires_in: expiresIn,
        interval: options.interval ?? 0,
      },
    };
  }

  function devicePoll(form: Record<string, string>): Answer {
    const grant = devices.find((d) => d.deviceCode === form.device_code);
    if (!grant || grant.state === 'used') return oauthError('invalid_grant', 'unknown or used device code');
    if (grant.clientId !== form.client_id) return oauthError('invalid_client', 'the device code was issued to another client', 401);
    const scripted = script.shift();
    if (scripted === 'pending') return oauthError('authorization_pending');
    if (scripted === 'slow_down') return oauthError('slow_down');
    if (scripted === 'denied' || grant.state === 'denied') return oauthError('access_denied', 'the user denied the request');
    if (scripted === 'expired' || Date.now() > (expiresAt.get(grant.deviceCode) ?? 0)) return oauthError('expired_token');
    if (grant.state === 'pending') return oauthError('authorization_pending');
    grant.state = 'used';
    return issue('device_code', grant.clientId, grant.scope);
  }

  function refresh(form: Record<string, string>): Answer {
    const owner = form.refresh_token ? refreshTokens.get(form.refresh_token) : undefined;
    if (!owner) return oauthError('invalid_grant', 'the refresh token is invalid or revoked');
    if (owner !== form.client_id) return oauthError('invalid_client', 'the refresh token was issued to another client', 401);
    refreshTokens.delete(form.refresh_token!); // rotated: each refresh token works once
    return issue('refresh_token', owner, undefined);
  }

  function route(method: string, path: string, form: Record<string, string>): Answer {
    if (method !== 'POST') return { status: 405, body: { error: 'invalid_request', error_description: 'POST only' } };
    if (path === DEVICE_PATH) return deviceAuthorization(form);
    if (path !== TOKEN_PATH) return { status: 404, body: { error: 'not_found' } };
    if (form.grant_type === DEVICE_GRANT) return devicePoll(form);
    if (form.grant_type === 'refresh_token') return refresh(form);
    return oauthError('unsupported_grant_type');
  }

  const server = createServer((req, res: ServerResponse) => {
    readForm(req)
      .then((form) => {
        const path = new URL(req.url ?? '/', 'http://fake.invalid').pathname;
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
        requests.push({ method: req.method ?? 'GET', path, headers, form });
        const answer = route(req.method ?? 'GET', path, form);
        res.writeHead(answer.status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify(answer.body));
      })
      .catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'server_error', error_description: String(error) }));
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const byUserCode = (code: string) => {
    const grant = devices.find((d) => d.userCode === code);
    if (!grant) throw new Error(`the fake issued no user code ${code}`);
    return grant;
  };

  const fake: FakeOAuthServer = {
    url,
    requests,
    devices,
    issued,
    tokenLifetimeSeconds: 3600,
    issueRefreshTokens: true,
    scriptPolls: (...outcomes) => void script.push(...outcomes),
    nextDevice: () => {
      if (awaited < devices.length) {
        awaited = devices.length;
        return Promise.resolve(devices[devices.length - 1]!);
      }
      return new Promise((resolve) => waiters.push(resolve));
    },
    approve: (code) => void (byUserCode(code).state = 'approved'),
    deny: (code) => void (byUserCode(code).state = 'denied'),
    revokeRefreshTokens: () => refreshTokens.clear(),
    tokenRequests: (grant) =>
      requests.filter((r) => r.path === TOKEN_PATH && (!grant || r.form.grant_type === (grant === 'device_code' ? DEVICE_GRANT : 'refresh_token'))),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
