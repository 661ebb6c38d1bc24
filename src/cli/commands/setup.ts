// `iris setup`: the first-run wizard (provider → authentication → model, optionally the webhook
// platform). Every question has a flag, so it can be scripted; without a terminal a question
// whose flag is missing is a usage error naming the flag.
import { hasUsableOAuth, loadOAuthView } from '../../auth/view.js';
import type { Env, HomePaths } from '../../config/home.js';
import { createIdentityTokenProvider } from '../../providers/identity/index.js';
import { MissingAnswer, SetupCancelled, unattendedPrompter, type Prompter } from '../../setup/prompter.js';
import { runSetupFlow, SetupError, type SetupFlags } from '../../setup/setup-flow.js';
import { writeSetup } from '../../setup/write-setup.js';
import { printData, printJson } from '../console.js';
import { openConfig, openEnv, openHome } from '../context.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import { probeEndpoint, type ProbeOptions } from '../../providers/cloud/probe.js';
import { whileWaiting } from '../spinner.js';
import { isProbedProvider } from '../../providers/cloud/probe.js';
import { checkStoredKey, keyCheckText } from './setup-key-check.js';

export type SetupCliOptions = Omit<SetupFlags, 'apiKey'> & { apiKeyStdin?: boolean; json?: boolean };

export const IDENTITY_PREFLIGHT_MS = 10_000;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

async function signedInProviders(paths: HomePaths): Promise<ReadonlySet<string>> {
  const { view } = await loadOAuthView(paths);
  return new Set([...view.keys()].filter((provider) => hasUsableOAuth(view, provider)));
}

/** A person at a terminal gets the interactive wizard; everyone else answers with flags. */
async function choosePrompter(options: SetupCliOptions): Promise<Prompter> {
  const print = (line: string) => (options.json ? process.stderr.write(`${line}\n`) : printData(line));
  if (options.yes || options.apiKeyStdin || !process.stdin.isTTY || !process.stdout.isTTY) return unattendedPrompter(print);
  const { clackPrompter } = await import('../../setup/clack-prompter.js');
  return clackPrompter();
}

/**
 * `iris model` on a terminal: provider, authentication if it is missing, then the model; written
 * like `iris model set` (plus the endpoint and wire format a deployment needs). Without a terminal
 * it says which command to use instead.
 */
export async function modelPicker(): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new CliFailure('usage', 'the model picker needs a terminal; use iris model set <provider> <model> (or iris setup with flags)');
  }
  return setup({ webhook: false }, 'iris model');
}

export async function setup(options: SetupCliOptions, title = 'iris setup'): Promise<number> {
  const paths = await openHome();
  const env = await openEnv(paths);
  const { config } = await openConfig(paths);
  let apiKey: string | undefined;
  if (options.apiKeyStdin) {
    apiKey = await readStdin();
    if (!apiKey) throw new CliFailure('usage', '--api-key-stdin: nothing was read from standard input');
  }
  const prompter = await choosePrompter(options);
  prompter.open?.(title);
  let choice;
  try {
    choice = await runSetupFlow(
      { ...options, ...(apiKey !== undefined ? { apiKey } : {}) },
      {
        config,
        env,
        prompter,
        // One source per run: its 10 s walk is the preflight, and its cached token serves the probes.
        identity: (merged: Env) => createIdentityTokenProvider({ env: merged, timeoutMs: IDENTITY_PREFLIGHT_MS }),
        // A probe can take its whole 10 s on a silent endpoint: a terminal shows what is being tried.
        probe: (baseUrl: string, probeOptions: ProbeOptions) =>
          whileWaiting(process.stderr, `probing ${baseUrl} for its wire format (GET /models, then a messages request)`, () => probeEndpoint(baseUrl, probeOptions)),
        signedIn: await signedInProviders(paths),
      },
    );
  } catch (err) {
    if (err instanceof MissingAnswer || err instanceof SetupError) throw new CliFailure('usage', err.message);
    if (err instanceof SetupCancelled) {
      prompter.close?.('cancelled');
      printData(err.message);
      return EXIT.failure;
    }
    throw err;
  }
  const written = await writeSetup(paths, choice);
  if (!written.ok) throw new CliFailure(written.error.code, written.error.message);
  // A key read from standard input is tried as the wizard's probes try theirs: what the check
  // found is said, and the key stays stored either way (iris doctor checks again later).
  const keyCheck = options.apiKeyStdin && !isProbedProvider(choice.provider) ? await checkStoredKey(paths) : undefined;
  const summary = {
    provider: choice.provider,
    model: choice.model,
    base_url: choice.baseUrl,
    api_mode: choice.apiMode ?? null,
    auth_mode: choice.authMode,
    context_length: choice.contextLength,
    env_written: written.envNames,
    webhook: choice.webhook ? { enabled: true, port: choice.webhook.port } : null,
    stale_aux: written.change.staleAux,
    key_check: keyCheck ?? null,
    file: paths.configPath,
  };
  if (options.json) {
    printJson(summary);
    return EXIT.ok;
  }
  printData(
    [
      `main model: ${choice.provider} · ${choice.model}${choice.apiMode ? ` (${choice.apiMode})` : ''}${choice.baseUrl ? ` at ${choice.baseUrl}` : ''}`,
      `context length: ${choice.contextLength}`,
      ...(choice.authMode === 'identity_token' ? ['auth: identity token (nothing stored; a fresh token per request)'] : []),
      ...(written.envNames.length > 0 ? [`stored in ${paths.envPath}: ${written.envNames.join(', ')}`] : []),
      ...(keyCheck ? [keyCheckText(keyCheck)] : []),
      ...(choice.webhook ? [`webhook gateway: enabled on port ${choice.webhook.port} (iris gateway start)`] : []),
      `written to ${paths.configPath}; try it: iris chat -q "hello"`,
    ].join('\n'),
  );
  prompter.close?.('setup done');
  return EXIT.ok;
}
