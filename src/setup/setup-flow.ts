// `iris setup`: provider → authentication → model, each answered by a flag or asked. On a fresh
// install it turns `model: ''` into a mapping; run again, it offers the current values as the
// defaults. cloud-hosted and custom follow the spec's probe sequence to find the api mode; identity
// mode runs the 10 s token preflight and offers to save anyway when it fails. The preflight and the
// probes share one environment and one identity token source, so the probes carry the token the
// preflight got (and the key the saved config will read), not a credential of their own.
import { randomBytes } from 'node:crypto';
import type { Env } from '../config/home.js';
import type { Config } from '../config/schema.js';
import { API_MODES } from '../config/schema.js';
import { contextLengthFor, PROVIDERS, providerSpec } from '../providers/catalog.js';
import { isProbedProvider, PROBED_PROVIDERS, probeEndpoint, type ProbeOptions, type ProbeOutcome } from '../providers/cloud/probe.js';
import type { IdentityTokenProvider } from '../providers/identity/types.js';
import { isProviderId, type ProviderId } from '../domain/provider-ids.js';
import type { ApiMode } from '../providers/wire/types.js';
import type { Choice, Prompter } from './prompter.js';
import type { SetupChoice } from './write-setup.js';

export type SetupFlags = {
  readonly provider?: string;
  readonly model?: string;
  readonly baseUrl?: string;
  readonly apiMode?: string;
  readonly authMode?: string;
  readonly apiKeyEnv?: string;
  /** The key itself, read from stdin by the CLI (never from argv). */
  readonly apiKey?: string;
  readonly clientId?: string;
  readonly tenantId?: string;
  readonly webhook?: boolean;
  readonly webhookPort?: string;
  readonly webhookSecret?: string;
  /** Accept defaults and save after a failed identity preflight. */
  readonly yes?: boolean;
};

export type SetupDeps = {
  readonly config: Readonly<Config>;
  readonly env: Env;
  readonly prompter: Prompter;
  readonly probe?: (baseUrl: string, options: ProbeOptions) => Promise<ProbeOutcome>;
  /** The identity token source for this environment: the preflight asks it first, then the probes reuse it. */
  readonly identity: (env: Env) => IdentityTokenProvider;
  /** Providers signed in with `iris auth login`: they need no key. */
  readonly signedIn?: ReadonlySet<string>;
};

export class SetupError extends Error {}

// The providers configured by endpoint URL are exactly the ones whose wire format is probed.
const NEEDS_ENDPOINT: ReadonlySet<string> = new Set(PROBED_PROVIDERS);
export const PROBE_TIMEOUT_MS = 10_000;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MODEL_QUESTION: Readonly<Record<string, string>> = {
  'cloud-hosted': 'The deployment name (the model as the resource names it)',
  // The picker adds its own hint (type to filter, or type any id): not said twice.
  custom: "The model, by the endpoint's own id",
};

function current(config: Readonly<Config>) {
  const m = config.model;
  return m === ''
    ? undefined
    : { provider: m.provider ?? '', model: m.default || m.model || '', baseUrl: m.base_url ?? '', apiMode: m.api_mode, authMode: m.auth_mode, keyEnv: m.key_env };
}

function checkUrl(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? undefined : 'an http(s) URL';
  } catch {
    return 'an http(s) URL, such as https://my-resource.openai.azure.com/openai/v1';
  }
}

function asApiMode(value: string | undefined): ApiMode | undefined {
  if (value === undefined || value === '') return undefined;
  if (!(API_MODES as readonly string[]).includes(value)) throw new SetupError(`--api-mode must be one of ${API_MODES.join(', ')} (got "${value}")`);
  return value as ApiMode;
}

type Current = ReturnType<typeof current>;

/** What every step reads: the flags, the deps, the config's current main model, and how to say a line. */
type Step = {
  readonly flags: SetupFlags;
  readonly deps: SetupDeps;
  readonly before: Current;
  readonly say: (line: string) => void;
};

export async function runSetupFlow(flags: SetupFlags, deps: SetupDeps): Promise<SetupChoice & { readonly notes: readonly string[] }> {
  const notes: string[] = [];
  const step: Step = {
    flags,
    deps,
    before: current(deps.config),
    say: (line) => {
      notes.push(line);
      deps.prompter.note(line);
    },
  };
  const provider = await chooseProvider(step);
  const spec = providerSpec(provider)!;
  const same = step.before?.provider === provider ? step.before : undefined;
  const authMode = await chooseAuthMode(step, provider, same);
  const endpoint = await chooseEndpoint(step, provider, spec, same);
  const credential = await chooseCredential(step, provider, spec, authMode, same);
  // What requests will see once this is saved: the environment plus the values about to be stored.
  const env: Env = { ...deps.env, ...Object.fromEntries(credential.envValues.map((e) => [e.name, e.value])) };
  const identity = authMode === 'identity_token' ? await identityPreflight(step, env) : undefined;
  const wire = await chooseWireFormat(step, provider, spec, same, { baseUrl: endpoint, env, authMode, keyEnv: credential.keyEnv, identity });
  const model = await chooseModel(step, provider, spec, same, wire.suggested);
  const webhook = await chooseWebhook(step);
  return {
    provider,
    model,
    baseUrl: wire.baseUrl,
    ...(wire.apiMode ? { apiMode: wire.apiMode } : {}),
    authMode,
    ...(credential.keyEnv ? { keyEnv: credential.keyEnv } : {}),
    contextLength: contextLengthFor(provider, model),
    envValues: credential.envValues,
    ...(webhook ? { webhook } : {}),
    notes,
  };
}

type Spec = NonNullable<ReturnType<typeof providerSpec>>;
type Same = Current;
type AuthMode = 'api_key' | 'identity_token';

async function chooseProvider({ flags, deps, before }: Step): Promise<ProviderId> {
  const providerChoices: Choice[] = PROVIDERS.map((p) => {
    const hint = p.keyEnv ? (deps.env[p.keyEnv]?.trim() ? `${p.keyEnv} is set` : `needs ${p.keyEnv}`) : p.id === 'custom' ? 'any OpenAI-compatible server' : undefined;
    return { value: p.id, label: p.name, ...(hint ? { hint } : {}) };
  });
  const provider =
    flags.provider ??
    (deps.prompter.interactive || !before?.provider
      ? await deps.prompter.select({ message: 'Which provider serves the main model?', choices: providerChoices, ...(before?.provider ? { initial: before.provider } : {}), flag: '--provider' })
      : before.provider);
  if (!isProviderId(provider)) throw new SetupError(`unknown provider "${provider}" (known: ${PROVIDERS.map((p) => p.id).join(', ')})`);
  return provider;
}

async function chooseAuthMode({ flags, deps }: Step, provider: ProviderId, same: Same): Promise<AuthMode> {
  if (flags.authMode !== undefined) {
    if (flags.authMode !== 'api_key' && flags.authMode !== 'identity_token') throw new SetupError(`--auth-mode must be api_key or identity_token (got "${flags.authMode}")`);
    if (flags.authMode === 'identity_token' && provider !== 'cloud-hosted') throw new SetupError('--auth-mode identity_token works with cloud-hosted only');
    return flags.authMode;
  }
  if (provider !== 'cloud-hosted') return 'api_key';
  const initial = same?.authMode ?? 'api_key';
  if (!deps.prompter.interactive) return initial;
  return (await deps.prompter.select({
    message: 'How does Iris authenticate to the endpoint?',
    choices: [
      { value: 'api_key', label: 'API key', hint: 'CLOUD_HOSTED_API_KEY' },
      { value: 'identity_token', label: 'Cloud identity (keyless)', hint: 'a fresh token per request; nothing stored' },
    ],
    initial,
    flag: '--auth-mode',
  })) as AuthMode;
}

async function chooseEndpoint({ flags, deps }: Step, provider: ProviderId, spec: Spec, same: Same): Promise<string> {
  let baseUrl = flags.baseUrl ?? '';
  if (NEEDS_ENDPOINT.has(provider) && !baseUrl) {
    const known = same?.baseUrl || (spec.baseUrlEnv ? deps.env[spec.baseUrlEnv]?.trim() : '') || '';
    baseUrl =
      deps.prompter.interactive || !known
        ? await deps.prompter.text({ message: `${spec.name}: the endpoint URL`, ...(known ? { initial: known } : {}), placeholder: provider === 'cloud-hosted' ? 'https://<resource>.openai.azure.com/openai/v1' : 'http://localhost:8000/v1', flag: '--base-url', validate: checkUrl })
        : known;
  } else if (!flags.baseUrl && same?.baseUrl) baseUrl = same.baseUrl;
  if (baseUrl) {
    const problem = checkUrl(baseUrl);
    if (problem) throw new SetupError(`--base-url must be ${problem} (got "${baseUrl}")`);
  }
  return baseUrl;
}

type Credential = { readonly keyEnv: string | undefined; readonly envValues: ReadonlyArray<{ name: string; value: string }> };

async function chooseCredential(step: Step, provider: ProviderId, spec: Spec, authMode: AuthMode, same: Same): Promise<Credential> {
  const { flags } = step;
  if (flags.apiKeyEnv !== undefined && !ENV_NAME.test(flags.apiKeyEnv)) throw new SetupError(`--api-key-env must be a variable name (got "${flags.apiKeyEnv}")`);
  return authMode === 'api_key' ? chooseApiKey(step, provider, spec, same) : chooseIdentity(step);
}

async function chooseApiKey({ flags, deps, say }: Step, provider: ProviderId, spec: Spec, same: Same): Promise<Credential> {
  const { prompter } = deps;
  const envValues: Array<{ name: string; value: string }> = [];
  let keyEnv = flags.apiKeyEnv ?? (same?.keyEnv || undefined);
  // A custom endpoint has no variable of its own: on a terminal, ask which one holds its key (or none).
  if (provider === 'custom' && keyEnv === undefined && flags.apiKey === undefined && prompter.interactive && !flags.yes) {
    const named = (
      await prompter.text({
        message: 'The variable that holds the endpoint\'s key (empty: the endpoint needs no key)',
        placeholder: 'CUSTOM_API_KEY',
        optional: true,
        flag: '--api-key-env',
        validate: (value) => (value.trim() === '' || ENV_NAME.test(value.trim()) ? undefined : 'a variable name: letters, digits and _'),
      })
    ).trim();
    if (named) keyEnv = named;
  }
  const variable = keyEnv ?? spec.keyEnv;
  const present = variable ? Boolean(deps.env[variable]?.trim()) : false;
  if (flags.apiKey !== undefined) {
    if (!variable) throw new SetupError(`${spec.name} takes no key variable; pass --api-key-env to name one`);
    envValues.push({ name: variable, value: flags.apiKey.trim() });
  } else if (!present && deps.signedIn?.has(provider)) {
    say(`${spec.name}: signed in with iris auth login; no key needed`);
  } else if (variable && (!present || (prompter.interactive && !flags.yes && (await prompter.confirm({ message: `${variable} is set. Replace it?`, initial: false, flag: '--api-key-stdin' }))))) {
    if (provider === 'custom' && !present && !prompter.interactive) {
      say(`no key for ${variable}: requests go without one (fine for a local server)`);
    } else {
      const value = await prompter.secret({ message: `${variable} (stored in $IRIS_HOME/.env, never in config.yaml)`, flag: '--api-key-stdin' });
      if (value.trim()) envValues.push({ name: variable, value: value.trim() });
    }
  }
  return { keyEnv, envValues };
}

async function chooseIdentity({ flags, deps }: Step): Promise<Credential> {
  const { prompter } = deps;
  const envValues: Array<{ name: string; value: string }> = [];
  const clientId = flags.clientId ?? (await prompter.text({ message: 'Client id of a user-assigned managed identity (empty: none)', flag: '--client-id', optional: true, initial: deps.env.CLOUD_CLIENT_ID ?? '' }));
  const tenantId = flags.tenantId ?? (await prompter.text({ message: 'Tenant id (empty: the default tenant)', flag: '--tenant-id', optional: true, initial: deps.env.CLOUD_TENANT_ID ?? '' }));
  if (clientId.trim()) envValues.push({ name: 'CLOUD_CLIENT_ID', value: clientId.trim() });
  if (tenantId.trim()) envValues.push({ name: 'CLOUD_TENANT_ID', value: tenantId.trim() });
  return { keyEnv: undefined, envValues };
}

/** The 10 s token preflight; a failure is said, and saved anyway only when the user agrees (or --yes). */
async function identityPreflight({ flags, deps, say }: Step, env: Env): Promise<IdentityTokenProvider> {
  const source = deps.identity(env);
  const token = await source.getToken();
  if (token.ok) {
    say(`identity token: ok (from ${token.source})`);
    return source;
  }
  const detail = [token.error.message, ...token.error.attempts.map((a) => `  ${a.source}: ${a.message}`)].join('\n');
  say(`identity token preflight failed:\n${detail}`);
  const save = flags.yes ? true : await deps.prompter.confirm({ message: 'Save anyway and validate later (iris doctor)?', initial: false, flag: '--yes' });
  if (!save) throw new SetupError('identity token preflight failed; nothing was written (fix the identity, or pass --yes to save anyway)');
  // A source caches its token, so the probes send the preflight's; after a failure they get the
  // same failure instead of walking the chain (and its timeout) once more per probe.
  return { getToken: async () => token };
}

type Wire = { readonly apiMode: ApiMode | undefined; readonly baseUrl: string; readonly suggested: readonly string[] };
type ProbeFacts = { readonly baseUrl: string; readonly env: Env; readonly authMode: AuthMode; readonly keyEnv: string | undefined; readonly identity: IdentityTokenProvider | undefined };

/** The api mode: a flag, the current one, or (cloud-hosted, custom) what the probes find, with the models they list. */
async function chooseWireFormat({ flags, deps, say }: Step, provider: ProviderId, spec: Spec, same: Same, facts: ProbeFacts): Promise<Wire> {
  const apiMode = asApiMode(flags.apiMode) ?? (flags.provider === undefined || same ? same?.apiMode : undefined);
  const catalog = spec.models.map((m) => m.id);
  if (!isProbedProvider(provider) || flags.apiMode) return { apiMode, baseUrl: facts.baseUrl, suggested: catalog };
  const outcome = await (deps.probe ?? probeEndpoint)(facts.baseUrl, {
    provider,
    env: facts.env,
    authMode: facts.authMode,
    ...(facts.keyEnv ? { keyEnv: facts.keyEnv } : {}),
    ...(facts.identity ? { identity: facts.identity } : {}),
    timeoutMs: PROBE_TIMEOUT_MS,
  });
  for (const probeStep of outcome.steps) say(`probe ${probeStep.probe}${probeStep.url ? ` ${probeStep.url}` : ''}: ${probeStep.result}`);
  if (outcome.kind === 'manual') {
    say(
      provider === 'custom'
        ? `warning: ${facts.baseUrl} answered neither probe (see above): check that the server is running and that the URL is where its API starts (often …/v1); continue with manual entry of the api mode and the model`
        : 'auto-detection is incomplete: both probes were rejected; continue with manual entry of the api mode and the deployment name',
    );
    const chosen = asApiMode(
      await deps.prompter.select({
        message: 'Which API does the endpoint speak?',
        choices: API_MODES.map((m) => ({ value: m, label: m })),
        ...(same?.apiMode ? { initial: same.apiMode } : {}),
        flag: '--api-mode',
      }),
    );
    return { apiMode: chosen, baseUrl: facts.baseUrl, suggested: [] };
  }
  say(`api mode: ${outcome.apiMode}`);
  if (outcome.kind === 'models_list') return { apiMode: outcome.apiMode, baseUrl: outcome.baseUrl, suggested: outcome.models };
  return { apiMode: outcome.apiMode, baseUrl: facts.baseUrl, suggested: [] };
}

async function chooseModel({ flags, deps }: Step, provider: ProviderId, spec: Spec, same: Same, suggested: readonly string[]): Promise<string> {
  const initialModel = same?.model || spec.defaultModel || suggested[0];
  const model =
    flags.model ??
    (deps.prompter.interactive || !initialModel || (!flags.yes && suggested.length === 0)
      ? await deps.prompter.pick({
          message: MODEL_QUESTION[provider] ?? 'The main model',
          choices: suggested.map((id) => ({ value: id, label: id })),
          ...(initialModel ? { initial: initialModel } : {}),
          flag: '--model',
          allowOther: true,
        })
      : initialModel);
  if (!model.trim()) throw new SetupError('the model cannot be empty');
  return model.trim();
}

/** The webhook platform, when asked for: its port and a secret (the current one, or a new random one). */
async function chooseWebhook({ flags, deps }: Step): Promise<SetupChoice['webhook']> {
  const { prompter } = deps;
  const settings = deps.config.platforms.webhook;
  const wanted = flags.webhook ?? (prompter.interactive ? await prompter.confirm({ message: 'Enable the webhook gateway (code-host events → agent runs)?', initial: settings.enabled, flag: '--webhook' }) : false);
  if (!wanted) return undefined;
  const portText = flags.webhookPort ?? (prompter.interactive ? await prompter.text({ message: 'Webhook port', initial: String(settings.extra.port), flag: '--webhook-port' }) : String(settings.extra.port));
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
  if (!(port > 0 && port <= 65535)) throw new SetupError(`--webhook-port must be 1–65535 (got "${portText}")`);
  const secret = flags.webhookSecret ?? (settings.extra.secret || randomBytes(32).toString('hex'));
  return { port, secret };
}
