import { describe, expect, it } from 'vitest';
import { activeProfilePath, chooseProfile, profileHomeDir, profileNameProblem } from './names.js';

describe('chooseProfile', () => {
  it('prefers the flag, then IRIS_PROFILE, then the stored default, then default', () => {
    expect(chooseProfile({ flag: 'a', env: 'b', stored: 'c' })).toEqual({ name: 'a', source: 'flag' });
    expect(chooseProfile({ env: 'b', stored: 'c' })).toEqual({ name: 'b', source: 'env' });
    expect(chooseProfile({ stored: 'c' })).toEqual({ name: 'c', source: 'stored' });
    expect(chooseProfile({})).toEqual({ name: 'default', source: 'default' });
  });

  it('treats blank values as unset', () => {
    expect(chooseProfile({ flag: ' ', env: '', stored: 'c\n' })).toEqual({ name: 'c', source: 'stored' });
  });
});

describe('profileNameProblem', () => {
  it.each(['a', 'work', 'team-2', 'x_y', 'a'.repeat(32), 'default'])('accepts %s', (name) => {
    expect(profileNameProblem(name)).toBeUndefined();
  });

  it.each([
    ['', 'a profile name cannot be empty'],
    ['a'.repeat(33), `profile name "${'a'.repeat(33)}" is longer than 32 characters`],
    ['Work', 'profile name "Work" may hold only lowercase letters, digits, - and _'],
    ['../x', 'profile name "../x" may hold only lowercase letters, digits, - and _'],
    ['.trash', 'profile name ".trash" may hold only lowercase letters, digits, - and _'],
    ['a b', 'profile name "a b" may hold only lowercase letters, digits, - and _'],
  ])('refuses %j', (name, problem) => {
    expect(profileNameProblem(name)).toBe(problem);
  });
});

describe('profileHomeDir', () => {
  it('is the base home for default and profiles/<name> otherwise', () => {
    expect(profileHomeDir('/h', 'default')).toBe('/h');
    expect(profileHomeDir('/h', 'work')).toBe('/h/profiles/work');
    expect(activeProfilePath('/h')).toBe('/h/active_profile');
  });
});
