import { describe, expect, it } from 'vitest';
import { newNameProblem, whyNotDeletable } from './profiles-view.js';

const row = (name: string) => ({ name, description: '', generated: false, active: false });

describe('whyNotDeletable', () => {
  const list = { served: 'work', stored_default: 'home' };
  it('refuses default, the served profile and the stored default, each with its own reason', () => {
    expect(whyNotDeletable(row('default'), list)).toBe('The default profile is the home itself and cannot be deleted.');
    expect(whyNotDeletable(row('work'), list)).toBe('This dashboard serves it: serve another profile to delete it.');
    expect(whyNotDeletable(row('home'), list)).toBe('iris commands use it by default: run iris profile use default to delete it.');
  });
  it('lets any other profile go', () => {
    expect(whyNotDeletable(row('spare'), list)).toBeUndefined();
  });
  it('names default first even when the dashboard serves it', () => {
    expect(whyNotDeletable(row('default'), { served: 'default', stored_default: 'default' })).toBe('The default profile is the home itself and cannot be deleted.');
  });
});

describe('newNameProblem', () => {
  it('accepts a name that keeps the rule and is new', () => {
    expect(newNameProblem('work-2.b_c', ['default'])).toBeUndefined();
  });
  it('asks for a name when there is none', () => {
    expect(newNameProblem('', ['default'])).toBe('Give the new profile a name.');
  });
  it.each(['Work', '../x', 'a/b', '-a', 'a..b', 'x'.repeat(65), ' work'])('refuses %j with the rule', (name) => {
    expect(newNameProblem(name, [])).toBe(
      'A profile name must match ^[a-z0-9][a-z0-9._-]{0,63}$ (lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64) and cannot contain "..".',
    );
  });
  it('refuses a name that is taken', () => {
    expect(newNameProblem('work', ['default', 'work'])).toBe('A profile named work already exists.');
  });
});
