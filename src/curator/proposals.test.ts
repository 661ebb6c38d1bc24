import { describe, expect, it } from 'vitest';
import { buildCuratorPrompt, parseCuratorAnswer } from './proposals.js';

const KNOWN = new Set(['deploy', 'review', 'old-deploy']);
const answer = (proposals: unknown) => JSON.stringify({ proposals });

describe('parseCuratorAnswer', () => {
  it('reads every action, keeping into only for merge and description only for rewrite', () => {
    const text = answer([
      { skill: 'deploy', action: 'keep', reason: 'used daily' },
      { skill: 'old-deploy', action: 'merge', reason: 'same steps', into: 'deploy' },
      { skill: 'review', action: 'rewrite', reason: 'vague', description: 'Reviews a pull request for bugs.' },
    ]);
    expect(parseCuratorAnswer(`\n${text}\n`, KNOWN)).toEqual({
      ok: true,
      proposals: [
        { skill: 'deploy', action: 'keep', reason: 'used daily' },
        { skill: 'old-deploy', action: 'merge', reason: 'same steps', into: 'deploy' },
        { skill: 'review', action: 'rewrite', reason: 'vague', description: 'Reviews a pull request for bugs.' },
      ],
    });
    expect(parseCuratorAnswer(answer([{ skill: 'deploy', action: 'archive', reason: 'unused', into: 'review' }]), KNOWN)).toEqual({
      ok: true,
      proposals: [{ skill: 'deploy', action: 'archive', reason: 'unused' }],
    });
    expect(parseCuratorAnswer(answer([]), KNOWN)).toEqual({ ok: true, proposals: [] });
  });

  it('ignores keys the model adds, at the top and in a proposal', () => {
    const text = JSON.stringify({ proposals: [{ skill: 'deploy', action: 'keep', reason: 'used weekly', confidence: 0.9 }], note: 'x' });
    expect(parseCuratorAnswer(text, KNOWN)).toEqual({ ok: true, proposals: [{ skill: 'deploy', action: 'keep', reason: 'used weekly' }] });
  });

  it.each([
    ['not JSON', 'Sure! {"proposals": []}', 'it is not JSON'],
    ['a code fence', '```json\n{"proposals":[]}\n```', 'it is not JSON'],
    ['an array', '[]', 'it is not {"proposals":[…]}'],
    ['an unknown action', answer([{ skill: 'deploy', action: 'delete', reason: 'r' }]), 'at proposals.0.action'],
    ['no reason', answer([{ skill: 'deploy', action: 'keep' }]), 'at proposals.0.reason'],
    ['an empty reason', answer([{ skill: 'deploy', action: 'keep', reason: '' }]), 'at proposals.0.reason'],
    ['an unknown skill', answer([{ skill: 'nope', action: 'archive', reason: 'r' }]), 'proposal 1 names an unknown skill "nope"'],
    ['merge without into', answer([{ skill: 'deploy', action: 'merge', reason: 'r' }]), 'proposal 1 merges deploy without "into"'],
    ['merge into an unknown skill', answer([{ skill: 'deploy', action: 'merge', reason: 'r', into: 'x' }]), 'merges into an unknown skill "x"'],
    ['merge into itself', answer([{ skill: 'deploy', action: 'merge', reason: 'r', into: 'deploy' }]), 'merges deploy into itself'],
    ['rewrite without description', answer([{ skill: 'review', action: 'rewrite', reason: 'r' }]), 'rewrites review without "description"'],
    ['two proposals for a skill', answer([{ skill: 'deploy', action: 'keep', reason: 'r' }, { skill: 'deploy', action: 'archive', reason: 'r' }]), 'two proposals for deploy'],
  ])('refuses %s', (_name, text, error) => {
    const parsed = parseCuratorAnswer(text, KNOWN);
    expect(parsed.ok).toBe(false);
    expect((parsed as { error: string }).error).toContain(error);
  });
});

describe('buildCuratorPrompt', () => {
  it('gives each skill its description, load count, last load and text', () => {
    const prompt = buildCuratorPrompt(
      [
        { name: 'deploy', description: 'Deploys.', text: 'Step one.', loads: 3, lastLoadAt: Date.UTC(2026, 10, 20, 12) },
        { name: 'old', description: 'Old.', text: 'x'.repeat(5000), loads: 0, lastLoadAt: null },
      ],
      30,
    );
    expect(prompt).toContain('## deploy\ndescription: Deploys.\nloads in the last 30 days: 3\nlast load: 2026-11-20T12:00:00.000Z\ntext:\nStep one.');
    expect(prompt).toContain('## old\ndescription: Old.\nloads in the last 30 days: 0\nlast load: none in the window');
    expect(prompt).toContain('[… cut]');
    expect(prompt).not.toContain('x'.repeat(4001));
  });
});
