import { describe, expect, it } from 'vitest';
import { applyChainEdit, editDoneText, entryText, hasEntry } from './fallback-edits.js';

const a = { provider: 'openai', model: 'a' };
const b = { provider: 'anthropic', model: 'b' };
const c = { provider: 'openrouter', model: 'x/c', base_url: 'http://h/v1' };

describe('applyChainEdit', () => {
  it('adds at the end, and not twice', () => {
    expect(applyChainEdit([a], { kind: 'add', entry: b })).toEqual([a, b]);
    expect(applyChainEdit([a, b], { kind: 'add', entry: { provider: 'openai', model: 'a' } })).toEqual([a, b]);
    expect(hasEntry([a, c], { provider: 'openrouter', model: 'x/c' })).toBe(false);
  });

  it('removes by index and ignores an index past the end', () => {
    expect(applyChainEdit([a, b, c], { kind: 'remove', index: 1 })).toEqual([a, c]);
    expect(applyChainEdit([a], { kind: 'remove', index: 3 })).toEqual([a]);
  });

  it('moves up and down, not past either end', () => {
    expect(applyChainEdit([a, b, c], { kind: 'move', index: 2, by: -1 })).toEqual([a, c, b]);
    expect(applyChainEdit([a, b, c], { kind: 'move', index: 0, by: 1 })).toEqual([b, a, c]);
    expect(applyChainEdit([a, b], { kind: 'move', index: 0, by: -1 })).toEqual([a, b]);
    expect(applyChainEdit([a, b], { kind: 'move', index: 1, by: 1 })).toEqual([a, b]);
  });

  it('leaves the list it was given untouched', () => {
    const chain = [a, b];
    applyChainEdit(chain, { kind: 'move', index: 0, by: 1 });
    applyChainEdit(chain, { kind: 'remove', index: 0 });
    expect(chain).toEqual([a, b]);
  });
});

describe('texts', () => {
  it('names entries and what an edit did', () => {
    expect(entryText(c)).toBe('openrouter · x/c (http://h/v1)');
    expect(editDoneText({ kind: 'add', entry: b }, [a], 'the Vision fallbacks')).toBe('Added anthropic · b to the Vision fallbacks.');
    expect(editDoneText({ kind: 'remove', index: 0 }, [a], 'the global fallbacks')).toBe('Removed openai · a from the global fallbacks.');
    expect(editDoneText({ kind: 'move', index: 1, by: -1 }, [a, b], 'the Vision fallbacks')).toBe('Moved anthropic · b up in the Vision fallbacks.');
  });
});
