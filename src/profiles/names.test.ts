import { describe, expect, it } from 'vitest';
import { activeProfilePath, chooseProfile, profileHomeDir } from './names.js';

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

describe('profileHomeDir', () => {
  it('is the base home for default and profiles/<name> otherwise', () => {
    expect(profileHomeDir('/h', 'default')).toBe('/h');
    expect(profileHomeDir('/h', 'work')).toBe('/h/profiles/work');
    expect(activeProfilePath('/h')).toBe('/h/active_profile');
  });

  it.each(['../x', '..', '/etc', 'a/b', '.trash'])('refuses to build a home for %j', (name) => {
    expect(() => profileHomeDir('/h', name)).toThrow(`profile name ${JSON.stringify(name)} must match`);
  });
});
