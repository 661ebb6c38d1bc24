import { describe, expect, it } from 'vitest';
import type { Proposal } from './skills-api.js';
import { applicableArchives, loadsText, proposalText, sourceText, whenText } from './skills-view.js';

const proposal = (over: Partial<Proposal>): Proposal => ({ id: 'keep:a', skill: 'a', action: 'keep', reason: 'r', into: null, description: null, installed: true, ...over });

describe('skills view', () => {
  it('counts loads in words', () => {
    expect(loadsText(0)).toBe('never loaded');
    expect(loadsText(1)).toBe('1 load');
    expect(loadsText(12)).toBe('12 loads');
  });

  it('shows a time in UTC to the minute, and a dash for none or garbage', () => {
    expect(whenText('2026-11-20T08:05:59.000Z')).toBe('2026-11-20 08:05 UTC');
    expect(whenText(null)).toBe('—');
    expect(whenText('not a time')).toBe('—');
  });

  it('says each proposal as the report does', () => {
    expect(proposalText(proposal({ action: 'archive' }))).toBe('archive');
    expect(proposalText(proposal({ action: 'merge', into: 'deploy' }))).toBe('merge into deploy');
    expect(proposalText(proposal({ action: 'rewrite', description: 'Does X.' }))).toBe('rewrite the description: "Does X."');
  });

  it('offers only archive proposals whose skill is still installed', () => {
    const list = [
      proposal({ id: 'archive:a', action: 'archive' }),
      proposal({ id: 'archive:b', skill: 'b', action: 'archive', installed: false }),
      proposal({ id: 'keep:c', skill: 'c' }),
      proposal({ id: 'merge:d', skill: 'd', action: 'merge', into: 'c' }),
    ];
    expect(applicableArchives(list).map((p) => p.id)).toEqual(['archive:a']);
  });

  it('names a skill without a recorded origin as put in place by hand', () => {
    expect(sourceText(null)).toBe('put in place by hand');
    expect(sourceText('https://hub.example/index.json')).toBe('https://hub.example/index.json');
  });
});
