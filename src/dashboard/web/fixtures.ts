// Answers shaped like docs/dashboard.md, for the page's unit tests.
import type { Auxiliary, ModelOptions, Usage } from './api-types.js';

export const TASK_IDS = [
  'vision', 'web_extract', 'compression', 'skills_hub', 'approval', 'mcp', 'title_generation',
  'triage_specifier', 'kanban_decomposer', 'profile_describer', 'curator',
] as const;

export const OPTIONS: ModelOptions = {
  provider: 'openrouter',
  model: 'anthropic/claude-sonnet-4.5',
  providers: [
    {
      slug: 'openrouter',
      name: 'OpenRouter',
      models: ['anthropic/claude-sonnet-4.5', 'openai/gpt-5', 'google/gemini-2.5-pro'],
      model_details: [
        {
          id: 'anthropic/claude-sonnet-4.5',
          context_length: 200_000,
          capabilities: ['tools', 'vision', 'reasoning'],
          price: { input: 3, output: 15, cached_input: 0.3 },
        },
      ],
      free_text: false,
    },
    { slug: 'openai', name: 'OpenAI', models: ['gpt-5', 'gpt-4.1'], free_text: false },
    { slug: 'cloud-hosted', name: 'Cloud-hosted models', models: [], free_text: true },
  ],
  unauthenticated: [{ slug: 'anthropic', name: 'Anthropic', key_env: 'ANTHROPIC_API_KEY' }],
};

export function auxWith(overrides: Partial<Record<string, { provider: string; model: string }>> = {}): Auxiliary {
  return {
    main: { provider: 'openrouter', model: 'anthropic/claude-sonnet-4.5' },
    tasks: TASK_IDS.map((task) => ({
      task,
      name: task,
      provider: overrides[task]?.provider ?? 'auto',
      model: overrides[task]?.model ?? '',
      base_url: '',
    })),
  };
}

export const USAGE: Usage = {
  since: null,
  models: [
    {
      provider: 'openai',
      model: 'gpt-4.1',
      calls: 3,
      input_tokens: 1200,
      output_tokens: 300,
      cached_tokens: 0,
      cost_usd: 0.01,
      unpriced_calls: 0,
      tasks: ['vision'],
    },
    {
      provider: 'custom',
      model: 'llama-local',
      calls: 5,
      input_tokens: 50_000,
      output_tokens: 2_000,
      cached_tokens: 0,
      cost_usd: null,
      unpriced_calls: 5,
      tasks: ['main'],
    },
  ],
};
