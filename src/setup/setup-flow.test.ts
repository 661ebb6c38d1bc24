// The setup flow's decisions with a scripted prompter: which questions are asked in which case,
// and what is chosen. No files, no network (the probe and the preflight are injected).
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validate.js';
import type { ProbeOptions, ProbeOutcome } from '../providers/cloud/probe.js';
import type { TokenResult } from '../providers/identity/types.js';
import { MissingAnswer, unattendedPrompter, type Prompter } from './prompter.js';
import { runSetupFlow, SetupError, type SetupDeps } from './setup-flow.js';

function scripted(answers: Array<string | boolean>): Prompter & { asked: string[] } {
  const asked: string[] = [];
  const next = (q: { message: string; flag: string }) => {
    asked.push(q.flag);
    if (answers.length === 0) throw new Error(`unexpected question ${q.flag}: ${q.message}`);
    return answers.shift()!;
  };
  return {
    interactive: true,
    asked,
    select: async (q) => String(next(q)),
    pick: async (q) => String(next(q)),
    text: async (q) => String(next(q)),
    secret: async (q) => String(next(q)),
    confirm: async (q) => Boolean(next(q)),
    note: () => {},
  };
}

const fresh = validateConfig({}).config;
const token: TokenResult = { ok: true, token: 't', expiresOnMs: 0, source: 'managed_identity' };
const source = (result: TokenResult) => () => ({ getToken: async () => result });
const deps = (prompter: Prompter, extra: Partial<SetupDeps> = {}): SetupDeps => ({ config: fresh, env: {}, prompter, identity: source(token), ...extra });

describe('runSetupFlow', () => {
  it('asks provider, key, model, webhook in that order on a fresh install', async () => {
    const prompter = scripted(['anthropic', 'sk-ant-0123456789', 'claude-sonnet-4-5', false]);
    const choice = await runSetupFlow({}, deps(prompter));
    expect(prompter.asked).toEqual(['--provider', '--api-key-stdin', '--model', '--webhook']);
    expect(choice).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: '', authMode: 'api_key', envValues: [{ name: 'ANTHROPIC_API_KEY', value: 'sk-ant-0123456789' }] });
    expect(choice.webhook).toBeUndefined();
  });

  it('does not ask for a key that is set unless asked to replace it', async () => {
    const prompter = scripted(['openai', false, 'gpt-5', false]);
    const choice = await runSetupFlow({}, deps(prompter, { env: { OPENAI_API_KEY: 'sk-present-0123' } }));
    expect(prompter.asked).toEqual(['--provider', '--api-key-stdin', '--model', '--webhook']);
    expect(choice.envValues).toEqual([]);
  });

  it('a provider signed in with iris auth login is not asked for a key', async () => {
    const prompter = scripted(['openrouter', 'openai/gpt-5', false]);
    const choice = await runSetupFlow({}, deps(prompter, { signedIn: new Set(['openrouter']) }));
    expect(prompter.asked).toEqual(['--provider', '--model', '--webhook']);
    expect(choice.envValues).toEqual([]);
  });

  it('cloud-hosted: uses the probe outcome and its model ids', async () => {
    const outcome: ProbeOutcome = { kind: 'models_list', apiMode: 'chat_completions', models: ['dep-a', 'dep-b'], baseUrl: 'https://r.openai.azure.com/openai/v1', steps: [] };
    const picks: string[][] = [];
    const prompter = scripted(['cloud-hosted', 'api_key', 'https://r.openai.azure.com/openai/v1', 'key-0123456789', 'dep-b', false]);
    const pick = prompter.pick.bind(prompter);
    prompter.pick = async (q) => {
      picks.push(q.choices.map((c) => c.value));
      return pick(q);
    };
    const choice = await runSetupFlow({}, deps(prompter, { probe: async () => outcome }));
    expect(picks).toEqual([['dep-a', 'dep-b']]);
    expect(choice).toMatchObject({ provider: 'cloud-hosted', model: 'dep-b', apiMode: 'chat_completions', envValues: [{ name: 'CLOUD_HOSTED_API_KEY', value: 'key-0123456789' }] });
  });

  it('custom: probed like cloud-hosted, with the key variable the config will name', async () => {
    const outcome: ProbeOutcome = { kind: 'models_list', apiMode: 'chat_completions', models: ['llama'], baseUrl: 'http://localhost:8000/v1', steps: [] };
    const calls: Array<[string, ProbeOptions]> = [];
    const probe = async (url: string, options: ProbeOptions) => (calls.push([url, options]), outcome);
    const flags = { provider: 'custom', baseUrl: 'http://localhost:8000/v1', apiKeyEnv: 'LLAMA_KEY', model: 'llama', yes: true };
    const choice = await runSetupFlow(flags, deps(unattendedPrompter(() => {}), { env: { LLAMA_KEY: 'k-0123' }, probe }));
    expect(calls).toEqual([['http://localhost:8000/v1', { provider: 'custom', env: { LLAMA_KEY: 'k-0123' }, authMode: 'api_key', keyEnv: 'LLAMA_KEY', timeoutMs: 10_000 }]]);
    expect(choice).toMatchObject({ provider: 'custom', apiMode: 'chat_completions', keyEnv: 'LLAMA_KEY' });
  });

  it('identity mode: the probes get the preflight\'s source and environment', async () => {
    const made: Array<{ env: Record<string, string | undefined>; source: { getToken: () => Promise<TokenResult> } }> = [];
    const identity = (env: Record<string, string | undefined>) => {
      const created = { getToken: async () => token };
      made.push({ env, source: created });
      return created;
    };
    const calls: ProbeOptions[] = [];
    const probe = async (_url: string, options: ProbeOptions): Promise<ProbeOutcome> => (calls.push(options), { kind: 'messages_probe', apiMode: 'anthropic_messages', steps: [] });
    const flags = { provider: 'cloud-hosted', authMode: 'identity_token', baseUrl: 'https://r.services.ai.azure.com/models', clientId: 'uami-1', tenantId: '', model: 'dep' };
    await runSetupFlow(flags, deps(unattendedPrompter(() => {}), { env: { IDENTITY_HEADER: 'h' }, identity, probe }));
    expect(made.map((m) => m.env)).toEqual([{ IDENTITY_HEADER: 'h', CLOUD_CLIENT_ID: 'uami-1' }]);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.identity).toBe(made[0]!.source);
    expect(calls[0]!.env).toBe(made[0]!.env);
  });

  it('identity mode, failed preflight saved anyway: the probes get that failure, not a new chain walk', async () => {
    const failed: TokenResult = { ok: false, error: { code: 'timeout', message: 'timed out', attempts: [] } };
    let walks = 0;
    const identity = () => ({ getToken: async () => (walks++, failed) });
    const seen: TokenResult[] = [];
    const probe = async (_url: string, options: ProbeOptions): Promise<ProbeOutcome> => {
      seen.push(await options.identity!.getToken(), await options.identity!.getToken());
      return { kind: 'messages_probe', apiMode: 'anthropic_messages', steps: [] };
    };
    const flags = { provider: 'cloud-hosted', authMode: 'identity_token', baseUrl: 'https://r.services.ai.azure.com/models', clientId: '', tenantId: '', model: 'dep', yes: true };
    await runSetupFlow(flags, deps(unattendedPrompter(() => {}), { identity, probe }));
    expect(seen).toEqual([failed, failed]);
    expect(walks).toBe(1);
  });

  it('identity mode: a failed preflight asks to save anyway; no means a SetupError', async () => {
    const failed: TokenResult = { ok: false, error: { code: 'no_credential', message: 'no source gave a token', attempts: [{ source: 'managed_identity', message: 'refused' }] } };
    const prompter = scripted(['cloud-hosted', 'identity_token', 'https://r.services.ai.azure.com/anthropic', '', '', false]);
    await expect(runSetupFlow({}, deps(prompter, { identity: source(failed) }))).rejects.toThrow(SetupError);
    expect(prompter.asked).toEqual(['--provider', '--auth-mode', '--base-url', '--client-id', '--tenant-id', '--yes']);
  });

  it('without a terminal, a missing answer names its flag; flags alone are enough', async () => {
    await expect(runSetupFlow({ provider: 'openai' }, deps(unattendedPrompter(() => {})))).rejects.toThrow(MissingAnswer);
    const choice = await runSetupFlow({ provider: 'openai', model: 'gpt-4.1', apiKey: 'sk-0123456789' }, deps(unattendedPrompter(() => {})));
    expect(choice).toMatchObject({ provider: 'openai', model: 'gpt-4.1', contextLength: 1047576 });
  });

  it('refuses bad flags with a clear error', async () => {
    const quiet = unattendedPrompter(() => {});
    await expect(runSetupFlow({ provider: 'acme' }, deps(quiet))).rejects.toThrow('unknown provider "acme"');
    await expect(runSetupFlow({ provider: 'openai', authMode: 'identity_token' }, deps(quiet))).rejects.toThrow('--auth-mode identity_token works with cloud-hosted only');
    await expect(runSetupFlow({ provider: 'custom', baseUrl: 'ftp://x' }, deps(quiet))).rejects.toThrow('--base-url must be an http(s) URL');
    await expect(runSetupFlow({ provider: 'openai', model: 'x', apiKey: 'k', apiMode: 'soap' }, deps(quiet))).rejects.toThrow('--api-mode must be one of');
  });
});
