import { describe, expect, it } from 'vitest';
import { COLORED, createStyle, PLAIN } from './style.js';

const ESC = '\u001b';

describe('style', () => {
  it('plain leaves every text as it is', () => {
    expect([PLAIN.mark('ok'), PLAIN.mark('warn'), PLAIN.mark('fail')]).toEqual(['✓', '!', '✗']);
    expect(PLAIN.tone('fail', 'not healthy')).toBe('not healthy');
    expect(PLAIN.dim('fix: chmod 600 x')).toBe('fix: chmod 600 x');
  });

  it('coloured: green ✓, yellow !, red ✗, dim secondary text, whatever the stream', () => {
    expect(COLORED.mark('ok')).toBe(`${ESC}[32m✓${ESC}[39m`);
    expect(COLORED.mark('warn')).toBe(`${ESC}[33m!${ESC}[39m`);
    expect(COLORED.mark('fail')).toBe(`${ESC}[31m✗${ESC}[39m`);
    expect(COLORED.tone('ok', 'healthy')).toBe(`${ESC}[32mhealthy${ESC}[39m`);
    expect(COLORED.dim('fix: x')).toBe(`${ESC}[2mfix: x${ESC}[22m`);
    expect(COLORED.dim('')).toBe('');
  });

  it('createStyle picks by the decision', () => {
    expect(createStyle(true)).toBe(COLORED);
    expect(createStyle(false)).toBe(PLAIN);
  });
});
