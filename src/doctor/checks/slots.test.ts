import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../config/validate.js';
import { NO_OAUTH } from '../../auth/view.js';
import { checkAuxSlots, resolveAuxSlots } from './slots.js';

const slots = (raw: Record<string, unknown>) => checkAuxSlots(resolveAuxSlots(validateConfig(raw).config, { OPENAI_API_KEY: 'k' }, NO_OAUTH));

describe('checkAuxSlots', () => {
  it('one ok line when every slot follows the main model', () => {
    expect(slots({ model: { provider: 'openai', default: 'gpt-5' } })).toEqual([
      { id: 'slots', name: 'auxiliary slots', status: 'ok', finding: 'all 11 follow the main model (auto)' },
    ]);
  });

  it('names the pinned slots in display order', () => {
    const [check] = slots({
      model: { provider: 'openai', default: 'gpt-5' },
      auxiliary: { title_generation: { provider: 'openai', model: 'gpt-5-mini' }, vision: { provider: 'openai', model: 'gpt-4.1' } },
    });
    expect(check?.finding).toBe('9 on auto; vision → openai · gpt-4.1, title_generation → openai · gpt-5-mini');
  });

  it('fails each slot that names a provider without a model it could use', () => {
    const checks = slots({ model: { provider: 'openai', default: 'gpt-5' }, auxiliary: { vision: { provider: 'custom', model: '' }, curator: { provider: 'custom' } } });
    expect(checks.map((c) => [c.id, c.status])).toEqual([
      ['slot:vision', 'fail'],
      ['slot:curator', 'fail'],
    ]);
    expect(checks[0]).toMatchObject({
      finding: 'auxiliary.vision names custom but no model, and custom has no default model; set auxiliary.vision.model',
      fix: "iris model aux set vision <provider> <model> (or auto '' to follow the main model)",
    });
  });
});
