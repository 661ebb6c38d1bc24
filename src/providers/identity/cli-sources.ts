// The cloud CLI (`az`) and developer CLI (`azd`) login sessions. Not the SDK's AzureCliCredential
// and AzureDeveloperCliCredential: those run the CLI through a shell (child_process.exec), which
// the house rules forbid, take no AbortSignal, and find the CLI only on process.env's PATH.
// The commands, the JSON read back and the "not logged in" wording follow the SDK's.
import * as z from 'zod/mini';
import type { Env } from '../../config/home.js';
import { parseExpiry } from './expiry.js';
import { runCli, stderrSummary, type CliRun } from './run-cli.js';
import type { IdentitySettings } from './settings.js';
import { failed, unavailable, type CredentialSource, type SourceContext, type SourceOutcome } from './source.js';
import type { TokenSource } from './types.js';

/** `az account get-access-token --output json`: `expires_on` (epoch s) since az 2.54, else local-time `expiresOn`. */
const azOutput = z.object({
  accessToken: z.string().check(z.minLength(1)),
  expiresOn: z.optional(z.string()),
  expires_on: z.optional(z.union([z.number(), z.string()])),
});

/** `azd auth token --output json`: an RFC 3339 `expiresOn`. */
const azdOutput = z.object({
  token: z.string().check(z.minLength(1)),
  expiresOn: z.string(),
});

export type CliSourceOptions = { readonly env: Env; readonly platform: NodeJS.Platform };

type CliSpec = {
  readonly source: TokenSource;
  readonly command: 'az' | 'azd';
  readonly loginHint: string;
  args(settings: IdentitySettings): string[];
  /** stderr that means "installed, but nobody is signed in". */
  isLoggedOut(stderr: string): boolean;
  read(json: unknown, nowMs: number): { token: string; expiresOnMs: number | undefined } | undefined;
};

const AZ: CliSpec = {
  source: 'cloud_cli',
  command: 'az',
  loginHint: 'run `az login`',
  args: ({ resource, tenantId }) => [
    'account', 'get-access-token', '--output', 'json', '--resource', resource,
    ...(tenantId !== undefined ? ['--tenant', tenantId] : []),
  ],
  // "az login --scope …" asks for consent to this scope: a real failure whose text helps, not a logout.
  isLoggedOut: (stderr) => /az login/.test(stderr) && !/az login --scope/.test(stderr),
  read(json, nowMs) {
    const parsed = azOutput.safeParse(json);
    if (!parsed.success) return undefined;
    const { accessToken, expires_on, expiresOn } = parsed.data;
    return { token: accessToken, expiresOnMs: parseExpiry({ epochSeconds: expires_on, date: expiresOn }, nowMs) };
  },
};

const AZD: CliSpec = {
  source: 'developer_cli',
  command: 'azd',
  loginHint: 'run `azd auth login`',
  args: ({ scope, tenantId }) => [
    'auth', 'token', '--output', 'json', '--no-prompt', '--scope', scope,
    ...(tenantId !== undefined ? ['--tenant-id', tenantId] : []),
  ],
  isLoggedOut: (stderr) => /not logged in|azd auth login/i.test(stderr),
  read(json) {
    const parsed = azdOutput.safeParse(json);
    if (!parsed.success) return undefined;
    return { token: parsed.data.token, expiresOnMs: parseExpiry({ date: parsed.data.expiresOn }, 0) };
  },
};

function cliSource(spec: CliSpec, settings: IdentitySettings, options: CliSourceOptions): CredentialSource {
  return {
    source: spec.source,
    async getToken(context: SourceContext) {
      const run = await runCli({
        command: spec.command,
        args: spec.args(settings),
        env: options.env,
        platform: options.platform,
        signal: context.signal,
        timeoutMs: context.remainingMs(),
      });
      return readRun(spec, run, context.now());
    },
  };
}

function readRun(spec: CliSpec, run: CliRun, nowMs: number): SourceOutcome {
  if (run.kind === 'not_found') return unavailable(`not installed: ${spec.command} was not found on PATH`);
  if (run.kind === 'error') {
    if (spec.isLoggedOut(run.stderr)) return unavailable(`not logged in: ${spec.loginHint}`);
    return failed(`${spec.command} failed: ${stderrSummary(run.stderr) || run.message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(run.stdout);
  } catch {
    // Never quote stdout: a half-printed answer may hold the token.
    return failed(`${spec.command} printed something other than the expected JSON`);
  }
  const read = spec.read(json, nowMs);
  if (!read) return failed(`${spec.command} printed JSON without a token`);
  if (read.expiresOnMs === undefined) return failed(`${spec.command} printed a token without a readable expiry`);
  return { kind: 'token', token: read.token, expiresOnMs: read.expiresOnMs };
}

export const cloudCliSource = (settings: IdentitySettings, options: CliSourceOptions) => cliSource(AZ, settings, options);
export const developerCliSource = (settings: IdentitySettings, options: CliSourceOptions) => cliSource(AZD, settings, options);
