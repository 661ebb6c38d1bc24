import { describe, expect, it } from 'vitest';
import { shouldColor } from './color-choice.js';

describe('shouldColor', () => {
  it.each([
    // [isTTY, env, colour?]
    [true, {}, true],
    [false, {}, false],
    [undefined, {}, false],
    [true, { NO_COLOR: '1' }, false],
    [true, { NO_COLOR: 'anything' }, false],
    [true, { NO_COLOR: '' }, true],
    [false, { FORCE_COLOR: '1' }, true],
    [false, { FORCE_COLOR: '3' }, true],
    [false, { FORCE_COLOR: 'true' }, true],
    [false, { FORCE_COLOR: '' }, true],
    [true, { FORCE_COLOR: '0' }, false],
    [true, { FORCE_COLOR: 'false' }, false],
    [true, { FORCE_COLOR: 'FALSE' }, false],
    [false, { NO_COLOR: '1', FORCE_COLOR: '1' }, false],
    [true, { NO_COLOR: '', FORCE_COLOR: '0' }, false],
    [true, { TERM: 'dumb' }, false],
    [false, { TERM: 'dumb', FORCE_COLOR: '1' }, true],
    [true, { TERM: 'xterm-256color' }, true],
  ] as const)('isTTY %j with %j: %j', (isTTY, env, expected) => {
    expect(shouldColor({ isTTY, env })).toBe(expected);
  });
});
