import { describe, expect, it } from 'vitest';
import { effectiveEnv, parseEnvText, setEnvText, unsetEnvText } from './env-file.js';

const parsed = (text: string) => Object.fromEntries(parseEnvText(text));

describe('parseEnvText', () => {
  it('skips comments and blank lines', () => {
    expect(parsed('# a comment\n\nA=1\n   \n  # indented comment\nB=2\n')).toEqual({ A: '1', B: '2' });
  });

  it('understands an export prefix and spaces around =', () => {
    expect(parsed('export A=1\nexport  B = 2 \n')).toEqual({ A: '1', B: '2' });
  });

  it('takes single-quoted values literally up to the closing quote', () => {
    expect(parsed("A='a # b'\nB='x\\ny'\nC=''\nD='unterminated")).toEqual({
      A: 'a # b',
      B: 'x\\ny',
      C: '',
      D: 'unterminated',
    });
  });

  it('reads escapes inside double quotes', () => {
    const text = ['A="a\\nb"', 'B="say \\"hi\\""', 'C="back\\\\slash"', 'D="t\\tr\\r"', 'E="x\\q"'].join('\n');
    expect(parsed(text)).toEqual({ A: 'a\nb', B: 'say "hi"', C: 'back\\slash', D: 't\tr\r', E: 'xq' });
  });

  it('ignores what follows the closing quote', () => {
    expect(parsed('A="a" # comment\nB=\'b\' trailing\nC="unterminated')).toEqual({ A: 'a', B: 'b', C: 'unterminated' });
  });

  it('ends an unquoted value at a # preceded by whitespace', () => {
    expect(parsed('A=value # comment\nB=value#kept\nC=#kept\nD= #kept')).toEqual({
      A: 'value',
      B: 'value#kept',
      C: '#kept',
      D: '#kept',
    });
  });

  it('keeps = inside values and trims unquoted values', () => {
    expect(parsed('A=a=b=c\nB=\nC=  spaced value  ')).toEqual({ A: 'a=b=c', B: '', C: 'spaced value' });
  });

  it('reads CRLF line endings', () => {
    expect(parsed('A=1\r\nB="two"\r\n')).toEqual({ A: '1', B: 'two' });
  });

  it('lets a later duplicate win', () => {
    expect(parsed('A=1\nB=x\nA=2\n')).toEqual({ A: '2', B: 'x' });
  });

  it('skips lines that are not assignments', () => {
    expect(parsed('not an assignment\n1A=2\nA-B=3\n=4\nexport A\n')).toEqual({});
  });

  it('returns an empty map for empty text', () => {
    expect(parseEnvText('').size).toBe(0);
  });
});

describe('setEnvText', () => {
  it('writes a first assignment into empty text', () => {
    expect(setEnvText('', 'A', '1')).toBe('A=1\n');
  });

  it('replaces the first assignment in place and drops later ones', () => {
    const text = '# top\nA=1\n# middle\nB=2\nexport A=3\n# end\n';
    expect(setEnvText(text, 'A', 'new')).toBe('# top\nA=new\n# middle\nB=2\n# end\n');
  });

  it('appends a new key, with or without a trailing newline in the input', () => {
    expect(setEnvText('A=1', 'B', '2')).toBe('A=1\nB=2\n');
    expect(setEnvText('A=1\n', 'B', '2')).toBe('A=1\nB=2\n');
    expect(setEnvText('A=1\n\n', 'B', '2')).toBe('A=1\n\nB=2\n');
  });

  it('leaves commented-out assignments and keys with the same prefix alone', () => {
    expect(setEnvText('# A=old\nAB=1\n', 'A', '2')).toBe('# A=old\nAB=1\nA=2\n');
  });

  it('writes LF line endings when the input used CRLF', () => {
    expect(setEnvText('A=1\r\nB=2\r\n', 'B', '3')).toBe('A=1\nB=3\n');
  });

  it('writes plain values unquoted', () => {
    expect(setEnvText('', 'K', 'sk-or-v1_abc.def/x:y@z+=,~%^')).toBe('K=sk-or-v1_abc.def/x:y@z+=,~%^\n');
  });

  it('quotes and escapes values that need it', () => {
    expect(setEnvText('', 'K', 'a b')).toBe('K="a b"\n');
    expect(setEnvText('', 'K', 'say "hi"\n')).toBe('K="say \\"hi\\"\\n"\n');
    expect(setEnvText('', 'K', 'x#y')).toBe('K="x#y"\n');
  });

  it.each([
    'plain',
    '',
    'with space',
    '  lead and trail  ',
    ' ',
    'has "double" quotes',
    "has 'single' quotes",
    "'",
    '"',
    'multi\nline',
    'cr\r\nlf',
    'tab\there',
    'hash # here',
    '#start',
    'x#y',
    'back\\slash',
    'ends with backslash\\',
    '\\n is not a newline',
    'a\\"b',
    '$HOME',
    '=eq=',
    'üñí',
  ])('round-trips %j through parseEnvText', (value) => {
    expect(parseEnvText(setEnvText('', 'K', value)).get('K')).toBe(value);
  });

  it('round-trips a value replaced inside an existing file', () => {
    const text = setEnvText('# secrets\nK=old\nOTHER=1\n', 'K', 'new "value" # x');
    expect(parsed(text)).toEqual({ K: 'new "value" # x', OTHER: '1' });
  });
});

describe('effectiveEnv', () => {
  it('lets the process environment win over the file', () => {
    const env = effectiveEnv(new Map([['A', 'file'], ['B', 'file']]), { A: 'process', C: 'process' });
    expect(env).toEqual({ A: 'process', B: 'file', C: 'process' });
  });

  it('does not let an undefined process value erase a file value', () => {
    expect(effectiveEnv(new Map([['A', 'file']]), { A: undefined })).toEqual({ A: 'file' });
  });

  it('lets an empty process value win over the file', () => {
    expect(effectiveEnv(new Map([['A', 'file']]), { A: '' })).toEqual({ A: '' });
  });

  it('returns a frozen object', () => {
    expect(Object.isFrozen(effectiveEnv(new Map([['A', '1']]), {}))).toBe(true);
  });
});

describe('unsetEnvText', () => {
  it('drops every assignment of the key and keeps comments and the rest', () => {
    expect(unsetEnvText('# top\nA=1\nB=2\nexport A="x"\n# A=commented\n', 'A')).toBe('# top\nB=2\n# A=commented\n');
    expect(unsetEnvText('A=1\n', 'A')).toBe('');
    expect(unsetEnvText('', 'A')).toBe('');
    expect(unsetEnvText('B=2\n', 'A')).toBe('B=2\n');
  });
});
