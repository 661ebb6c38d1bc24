// Managed identity over its documented HTTP protocols, on the built-in fetch. Not the SDK's
// ManagedIdentityCredential: MSAL reads IDENTITY_ENDPOINT and friends from process.env and keeps
// the endpoint it chose in a process-wide static, so it can neither honour the environment map the
// caller passes nor be pointed at another endpoint later; and it takes no AbortSignal.
import * as z from 'zod/mini';
import { parseExpiry } from './expiry.js';
import type { ManagedIdentityTarget } from './settings.js';
import { errorText, failed, unavailable, type CredentialSource, type SourceContext, type SourceOutcome } from './source.js';

export const IMDS_TOKEN_PATH = '/metadata/identity/oauth2/token';
const IMDS_API_VERSION = '2018-02-01';
const APP_PLATFORM_API_VERSION = '2019-08-01';
const LEGACY_API_VERSION = '2017-09-01';
/** Off a cloud VM the metadata address never answers; the SDK waits this long before moving on. */
export const IMDS_PROBE_TIMEOUT_MS = 1000;

const tokenBody = z.object({
  access_token: z.string().check(z.minLength(1)),
  expires_on: z.optional(z.union([z.string(), z.number()])),
  expires_in: z.optional(z.union([z.string(), z.number()])),
});

const errorBody = z.object({
  error: z.optional(z.string()),
  error_description: z.optional(z.string()),
  message: z.optional(z.string()),
});

type Request = { readonly url: URL; readonly headers: Readonly<Record<string, string>> };

/** The request each flavour expects; a user-assigned identity is picked by its client id. */
export function buildManagedIdentityRequest(
  target: Exclude<ManagedIdentityTarget, { kind: 'unsupported' }>,
  resource: string,
  clientId: string | undefined,
): Request {
  const withQuery = (base: string, query: Record<string, string | undefined>) => {
    const url = new URL(base);
    for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
    return url;
  };
  switch (target.kind) {
    case 'imds':
      return {
        url: withQuery(`${target.host}${IMDS_TOKEN_PATH}`, { 'api-version': IMDS_API_VERSION, resource, client_id: clientId }),
        headers: { Metadata: 'true' },
      };
    case 'app_platform':
      return {
        url: withQuery(target.endpoint, { 'api-version': APP_PLATFORM_API_VERSION, resource, client_id: clientId }),
        headers: { 'X-IDENTITY-HEADER': target.header },
      };
    case 'app_platform_legacy':
      return {
        url: withQuery(target.endpoint, { 'api-version': LEGACY_API_VERSION, resource, clientid: clientId }),
        headers: { secret: target.secret },
      };
  }
}

/** Any HTTP answer (even an error) from the metadata address means it is there. */
export async function probeImds(host: string, signal: AbortSignal, timeoutMs = IMDS_PROBE_TIMEOUT_MS): Promise<boolean> {
  try {
    // No Metadata header and no query, as the SDK does, so nothing mistakes the probe for a request.
    const response = await fetch(`${host}${IMDS_TOKEN_PATH}`, {
      signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
      redirect: 'manual',
    });
    await response.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

export function managedIdentitySource(target: ManagedIdentityTarget, clientId: string | undefined): CredentialSource {
  return {
    source: 'managed_identity',
    async getToken(context) {
      if (target.kind === 'unsupported') return unavailable(target.reason);
      if (target.kind === 'imds' && target.probe && !(await probeImds(target.host, context.signal))) {
        return unavailable(`not available: no instance metadata endpoint answered at ${target.host}`);
      }
      return requestToken(target, clientId, context);
    },
  };
}

async function requestToken(
  target: Exclude<ManagedIdentityTarget, { kind: 'unsupported' }>,
  clientId: string | undefined,
  context: SourceContext,
): Promise<SourceOutcome> {
  const request = buildManagedIdentityRequest(target, context.resource, clientId);
  let response: Response;
  try {
    // No redirects: the identity header must go to the endpoint the platform named and nowhere else.
    response = await fetch(request.url, { headers: request.headers, signal: context.signal, redirect: 'error' });
  } catch (err) {
    const reason = `could not reach ${request.url.origin}: ${networkText(err)}`;
    // The metadata address is a guess; an app-platform endpoint was named by the platform.
    return target.kind === 'imds' ? unavailable(`not available: ${reason}`) : failed(reason);
  }
  const text = await response.text().catch(() => '');
  const json = parseJson(text);
  if (!response.ok) {
    const parsed = errorBody.safeParse(json);
    const detail = parsed.success ? (parsed.data.error_description ?? parsed.data.message ?? parsed.data.error) : undefined;
    const reason = `the managed identity endpoint answered ${response.status}${detail ? `: ${detail}` : ''}`;
    // On a VM with no identity assigned, IMDS says so with a 400; with a client id it is a wrong id.
    const noIdentity = target.kind === 'imds' && response.status === 400 && clientId === undefined;
    return noIdentity ? unavailable(`not available: ${reason}`) : failed(reason);
  }
  const body = tokenBody.safeParse(json);
  if (!body.success) return failed('the managed identity endpoint answered without an access token');
  const expiresOnMs = parseExpiry(
    { epochSeconds: body.data.expires_on, relativeSeconds: body.data.expires_in },
    context.now(),
  );
  if (expiresOnMs === undefined) return failed('the managed identity endpoint answered without a usable expiry');
  return { kind: 'token', token: body.data.access_token, expiresOnMs };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** fetch hides the useful part (ECONNREFUSED, ENOTFOUND) in `cause`. */
function networkText(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  return cause?.code ?? cause?.message ?? errorText(err);
}
