// The setup flow's decisions with a scripted prompter: which questions are asked in which case,
// and what is chosen. No files, no network (the probe and the preflight are injected).
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validate.js';
import type { ProbeOutcome } from '../providers/cloud/probe.js';
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
const deps = (prompter: Prompter, extra: Partial<SetupDeps> = {}): SetupDeps => ({ config: fresh, env: {}, prompter, preflight: async () => token, ...extra });

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
    const pick = prompter.pick;
    prompter.pick = async (q) => {
      picks.push(q.choices.map((c) => c.value));
      return pick(q);
    };
    const choice = await runSetupFlow({}, deps(prompter, { probe: async () => outcome }));
    expect(picks).toEqual([['dep-a', 'dep-b']]);
    expect(choice).toMatchObject({ provider: 'cloud-hosted', model: 'dep-b', apiMode: 'chat_completions', envValues: [{ name: 'CLOUD_HOSTED_API_KEY', value: 'key-0123456789' }] });
  });

  it('identity mode: a failed preflight asks to save anyway; no means a SetupError', async () => {
    const failed: TokenResult = { ok: false, error: { code: 'no_credential', message: 'no source gave a token', attempts: [{ source: 'managed_identity', message: 'refused' }] } };
    const prompter = scripted(['cloud-hosted', 'identity_token', 'https://r.services.ai.azure.com/anthropic', '', '', false]);
    await expect(runSetupFlow({}, deps(prompter, { preflight: async () => failed }))).rejects.toThrow(SetupError);
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
