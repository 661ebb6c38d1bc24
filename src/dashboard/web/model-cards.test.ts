import { describe, expect, it } from 'vitest';
import { auxWith, OPTIONS, TASK_IDS, USAGE } from './fixtures.js';
import { assignmentBadges, buildCards, cardKey } from './model-cards.js';

describe('the model cards', () => {
  it('badges the main model and each aux task on its model', () => {
    const badges = assignmentBadges(
      auxWith({ vision: { provider: 'openai', model: 'gpt-4.1' }, curator: { provider: 'openai', model: 'gpt-4.1' } }),
    );
    expect(badges.get(cardKey('openrouter', 'anthropic/claude-sonnet-4.5'))).toEqual(['main']);
    expect(badges.get(cardKey('openai', 'gpt-4.1'))).toEqual(['aux · vision', 'aux · curator']);
  });

  it('reads every slot on one model as one badge, and gives none to auto slots', () => {
    const all = Object.fromEntries(TASK_IDS.map((t) => [t, { provider: 'openai', model: 'gpt-5' }]));
    expect(assignmentBadges(auxWith(all)).get(cardKey('openai', 'gpt-5'))).toEqual(['aux · all 11 tasks']);
    expect([...assignmentBadges(auxWith({ vision: { provider: 'auto', model: 'x' } })).keys()]).toEqual([
      cardKey('openrouter', 'anthropic/claude-sonnet-4.5'),
    ]);
  });

  it('shows curated, used and assigned models once each, used ones first by cost', () => {
    const aux = auxWith({ vision: { provider: 'cloud-hosted', model: 'my-gpt-4o' } });
    const cards = buildCards(OPTIONS, aux, USAGE);
    expect(cards.map((c) => `${c.provider} ${c.model}`)).toEqual([
      'openai gpt-4.1',
      'custom llama-local',
      'openrouter anthropic/claude-sonnet-4.5',
      'openrouter openai/gpt-5',
      'openrouter google/gemini-2.5-pro',
      'openai gpt-5',
      'cloud-hosted my-gpt-4o',
    ]);
    const sonnet = cards.find((c) => c.model === 'anthropic/claude-sonnet-4.5');
    expect(sonnet).toMatchObject({
      providerName: 'OpenRouter',
      badges: ['main'],
      capabilities: ['tools', 'vision', 'reasoning'],
      contextLength: 200_000,
      usage: undefined,
    });
    expect(cards.find((c) => c.model === 'my-gpt-4o')?.badges).toEqual(['aux · vision']);
  });

  it('works with no usage and no providers', () => {
    expect(buildCards({ ...OPTIONS, providers: [] }, auxWith(), null).map((c) => c.model)).toEqual([
      'anthropic/claude-sonnet-4.5',
    ]);
    const empty = { ...auxWith(), main: { provider: '', model: '' } };
    expect(buildCards({ ...OPTIONS, providers: [] }, empty, null)).toEqual([]);
  });
});
