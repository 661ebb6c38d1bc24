import { describe, expect, it } from 'vitest';
import { chatRunKind } from './agent-run.js';

describe('chatRunKind', () => {
  it('is the owner at their terminal on a loopback dashboard, a teammate over the network otherwise', () => {
    expect(chatRunKind({ via: 'local' })).toBe('cli');
    expect(chatRunKind({ via: 'password' })).toBe('gateway');
    expect(chatRunKind({ via: 'proxy' })).toBe('gateway');
  });
});
