import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkName, NAME_KINDS, NAME_PATTERN, pathForName } from './names.js';

const sentence = (kind: string, shown: string) =>
  `${kind} name ${shown} must match ^[a-z0-9][a-z0-9._-]{0,63}$ (lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64) and cannot contain ".."`;

const GOOD = ['a', '0', 'work', 'team-2', 'x_y', 'v1.2', 'a.b.c', 'default', '9lives', 'a-', 'a_', 'a.', 'a'.repeat(64)];

// Every way out of a folder, and every near miss of the rule.
const BAD: ReadonlyArray<readonly [string, string]> = [
  ['..', 'the parent'],
  ['.', 'the folder itself'],
  ['../x', 'a climb'],
  ['../../some/dir', 'a deeper climb'],
  ['a/../..', 'a climb after a name'],
  ['a..b', 'two dots inside'],
  ['/etc', 'an absolute path'],
  ['/tmp/x', 'another absolute path'],
  ['a/b', 'a slash'],
  ['a\\b', 'a backslash'],
  ['..\\x', 'a Windows climb'],
  ['.hidden', 'a leading dot'],
  ['.trash', 'the profiles trash folder'],
  ['-x', 'a leading dash (an option to a program)'],
  ['_x', 'a leading underscore'],
  ['', 'empty'],
  ['a'.repeat(65), '65 characters'],
  ['a\0b', 'NUL'],
  ['a\n', 'a trailing newline'],
  ['a b', 'a space'],
  [' a', 'a leading space'],
  ['\u2024\u2024', 'one-dot leaders (look like ..)'],
  ['\uff0e\uff0e', 'fullwidth full stops'],
  ['\u0430dmin', 'a Cyrillic a'],
  ['caf\u00e9', 'an accented letter'],
  ['%2e%2e', 'a URL-encoded climb'],
  ['%2fetc', 'a URL-encoded slash'],
  ['Work', 'uppercase'],
  ['WORK', 'all uppercase'],
  ['a:b', 'a colon'],
  ['~', 'a tilde'],
];

describe('checkName', () => {
  it.each(GOOD)('accepts %j', (name) => {
    for (const kind of NAME_KINDS) expect(checkName(kind, name)).toEqual({ ok: true, name });
  });

  it.each(BAD)('refuses %j (%s), naming the rule', (name) => {
    for (const kind of NAME_KINDS) {
      expect(checkName(kind, name)).toEqual({ ok: false, error: sentence(kind, JSON.stringify(name)) });
    }
  });

  it('writes the sentence the way DECISIONS gives it', () => {
    expect(checkName('profile', '../x')).toEqual({
      ok: false,
      error: 'profile name "../x" must match ^[a-z0-9][a-z0-9._-]{0,63}$ (lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64) and cannot contain ".."',
    });
  });

  it('shows control characters as escapes and cuts a huge name', () => {
    expect(checkName('skill', 'a\u001b[31m')).toEqual({ ok: false, error: sentence('skill', '"a\\u001b[31m"') });
    expect(checkName('skill', 'a\0')).toEqual({ ok: false, error: sentence('skill', '"a\\u0000"') });
    const huge = checkName('route', 'x'.repeat(10_000));
    expect(huge).toEqual({ ok: false, error: sentence('route', JSON.stringify(`${'x'.repeat(80)}…`)) });
  });

  it('agrees with NAME_PATTERN, the form schemas use', () => {
    for (const name of GOOD) expect(NAME_PATTERN.test(name)).toBe(true);
    for (const [name] of BAD) expect(NAME_PATTERN.test(name)).toBe(false);
  });
});

describe('pathForName', () => {
  it('joins a good name under the folder', () => {
    expect(pathForName('/h/skills', 'skill', 'pdf-tools')).toBe(join('/h/skills', 'pdf-tools'));
  });

  it.each(BAD)('throws for %j instead of building a path', (name) => {
    expect(() => pathForName('/h/profiles', 'profile', name)).toThrow(sentence('profile', JSON.stringify(name)));
  });
});
