import { describe, expect, it } from 'vitest';
import { withUsage } from './installed.js';

describe('installed skills with their usage', () => {
  it('joins each skill to its loads and origin; a skill missing from either has none', () => {
    const skills = [
      { name: 'deploy', description: 'Deploys', path: '/h/skills/deploy/SKILL.md' },
      { name: 'lint', description: 'Lints', path: '/h/skills/lint/SKILL.md' },
    ];
    const origin = { source: 'https://hub.example/index.json', from: 'https://hub.example/deploy.md', installedAt: 5 };
    const rows = withUsage(skills, new Map([['deploy', origin]]), [
      { skill: 'deploy', loads: 3, lastLoadAt: 1_000 },
      { skill: 'gone', loads: 9, lastLoadAt: 2_000 },
    ]);
    expect(rows).toEqual([
      { ...skills[0], origin, loads: 3, lastLoadAt: 1_000 },
      { ...skills[1], origin: undefined, loads: 0, lastLoadAt: null },
    ]);
  });
});
