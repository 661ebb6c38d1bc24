import { describe, expect, it } from 'vitest';
import { describeChange, stillStale } from './changes.js';
import { auxWith } from './fixtures.js';

describe('what the page says after a change', () => {
  const aux = { ...auxWith(), tasks: auxWith().tasks.map((t) => ({ ...t, name: t.task === 'vision' ? 'Vision' : t.task })) };

  it('names the slot and the new assignment', () => {
    expect(describeChange({ scope: 'main', provider: 'openai', model: 'gpt-5' }, aux)).toBe(
      'The main model is now openai · gpt-5.',
    );
    expect(describeChange({ scope: 'auxiliary', target: { kind: 'one', task: 'vision' }, provider: 'openai', model: 'gpt-4.1' }, aux)).toBe(
      'Vision now uses openai · gpt-4.1.',
    );
    expect(describeChange({ scope: 'auxiliary', target: { kind: 'all' }, provider: 'openai', model: 'gpt-4.1' }, aux)).toBe(
      'All 11 auxiliary tasks now use openai · gpt-4.1.',
    );
    expect(describeChange({ scope: 'auxiliary', target: { kind: 'reset' }, provider: '', model: '' }, aux)).toBe(
      'Every auxiliary task is back to auto (follows the main model).',
    );
  });

  it('keeps only the stale slots that still hold what they held at the switch', () => {
    const stale = [
      { task: 'vision', provider: 'anthropic', model: 'claude-haiku-4-5' },
      { task: 'mcp', provider: 'openai', model: 'gpt-4.1' },
    ];
    const now = auxWith({ vision: { provider: 'anthropic', model: 'claude-haiku-4-5' } });
    expect(stillStale(stale, now)).toEqual([stale[0]]);
    expect(stillStale(stale, auxWith())).toEqual([]);
  });
});
