import { describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validate.js';
import { planEndpoint } from '../providers/endpoint.js';
import { buildStatusReport, followsMain, type SlotStatus } from './status-report.js';

function deepReport(raw: Record<string, unknown>, env: Record<string, string>) {
  const { config } = validateConfig(raw);
  return buildStatusReport({ config, env, gateway: { state: 'not_running', pid_file: '/h/gateway.pid' }, deep: { planEndpoint } });
}

const followers = (raw: Record<string, unknown>, env: Record<string, string>) => {
  const r = deepReport(raw, env);
  return r.slots.filter((s) => followsMain(r.main, s)).map((s) => s.task);
};

const MAIN = { model: { provider: 'openrouter', default: 'x/y' }, fallback_providers: [{ provider: 'openai', model: 'gpt-5.1' }] };
const KEYS = { OPENROUTER_API_KEY: 'k', OPENAI_API_KEY: 'k2' };

describe('followsMain', () => {
  it('every slot on auto follows; the reason words differ, the route does not', () => {
    expect(followers(MAIN, KEYS)).toEqual([
      'vision', 'web_extract', 'compression', 'skills_hub', 'approval', 'mcp',
      'title_generation', 'triage_specifier', 'kanban_decomposer', 'profile_describer', 'curator',
    ]);
  });

  it('a pinned slot, or one with its own fallback chain or endpoint, does not; a slot with only its own timeout does', () => {
    const raw = {
      ...MAIN,
      auxiliary: {
        vision: { provider: 'openai', model: 'gpt-5-mini' },
        mcp: { fallback_chain: [{ provider: 'openai', model: 'gpt-5-mini' }] },
        approval: { provider: 'openrouter', model: 'x/y' },
        curator: { timeout: 900 },
      },
    };
    expect(followers(raw, KEYS)).toEqual([
      'web_extract', 'compression', 'skills_hub', 'title_generation', 'triage_specifier', 'kanban_decomposer', 'profile_describer', 'curator',
    ]);
  });

  it('a main model without a credential is followed too: the chains still match', () => {
    expect(followers(MAIN, { OPENAI_API_KEY: 'k2' })).toHaveLength(11);
  });

  it('without --deep there are no chains to compare: nothing follows', () => {
    const { config } = validateConfig(MAIN);
    const r = buildStatusReport({ config, env: KEYS, gateway: { state: 'not_running', pid_file: '/h/gateway.pid' } });
    expect(r.slots.filter((s) => followsMain(r.main, s))).toEqual([]);
  });

  it('a different candidate anywhere in the chain breaks it', () => {
    const r = deepReport(MAIN, KEYS);
    const slot = r.slots[1] as SlotStatus;
    const chain = slot.candidates ?? [];
    const changed = { ...slot, candidates: [chain[0], { ...chain[1], base_url: 'https://other.example/v1' }] } as SlotStatus;
    expect(followsMain(r.main, slot)).toBe(true);
    expect(followsMain(r.main, changed)).toBe(false);
    expect(followsMain(r.main, { ...slot, candidates: chain.slice(0, 1) })).toBe(false);
  });
});
