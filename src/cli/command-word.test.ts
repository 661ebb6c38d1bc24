import { describe, expect, it } from 'vitest';
import { commandWord } from './command-word.js';

describe('commandWord', () => {
  it('is the first argument that is not a global option or its value', () => {
    expect(commandWord(['config', 'show'])).toBe('config');
    expect(commandWord(['-p', 'work', 'config', 'show'])).toBe('config');
    expect(commandWord(['--profile', 'work', 'chat', '-q', 'hi'])).toBe('chat');
    expect(commandWord(['--profile=work', 'status'])).toBe('status');
  });

  it('is nothing for a run with options only', () => {
    expect(commandWord([])).toBeUndefined();
    expect(commandWord(['--help'])).toBeUndefined();
    expect(commandWord(['-p', 'work'])).toBeUndefined();
  });
});
