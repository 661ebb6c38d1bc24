import { describe, expect, it } from 'vitest';
import { escapeLinePath, quoteExecArg, quoteWord, unitValueProblem } from './unit-syntax.js';

describe('unit file values', () => {
  it.each([
    ['/usr/bin/node', '/usr/bin/node'],
    ['/a b/c', '"/a b/c"'],
    ['/a"b', '"/a\\"b"'],
    ["/a'b", '"/a\'b"'],
    ['/a\\b', '"/a\\\\b"'],
    ['/50%', '/50%%'],
    ['/a$b', '/a$$b'],
    [';', '";"'],
    ['', '""'],
  ])('ExecStart argument %j → %s', (value, expected) => {
    expect(quoteExecArg(value)).toBe(expected);
  });

  it.each([
    ['IRIS_HOME=/x', 'IRIS_HOME=/x'],
    ['IRIS_HOME=/a b', '"IRIS_HOME=/a b"'],
    ['IRIS_HOME=/a$b', 'IRIS_HOME=/a$b'],
    ['IRIS_HOME=/a%b', 'IRIS_HOME=/a%%b'],
  ])('word %j → %s', (value, expected) => {
    expect(quoteWord(value)).toBe(expected);
  });

  it('writes a whole-line path as it is, % doubled', () => {
    expect(escapeLinePath('/a b/"c"/100%')).toBe('/a b/"c"/100%%');
  });

  it('refuses line breaks and control characters', () => {
    expect(unitValueProblem('/a\nb')).toBe('it holds a line break or another control character, which a unit file cannot carry');
    expect(unitValueProblem('/a\tb')).toBe('it holds a line break or another control character, which a unit file cannot carry');
    expect(unitValueProblem('/a b')).toBeUndefined();
  });
});
