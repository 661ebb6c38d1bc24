import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../store/types.js';
import { lastActive, localMinute, oneLine, sessionCells, sessionJson } from './listing.js';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
const summary: SessionSummary = {
  id: 's_0123456789ab',
  source: 'webhook:github-pr',
  title: 'Review   PR\n#12',
  provider: 'openrouter',
  model: 'anthropic/claude-sonnet-4.5',
  status: 'running',
  createdAt: Date.UTC(2026, 10, 23, 11, 0, 0),
  updatedAt: Date.UTC(2026, 10, 23, 11, 58, 30),
  messageCount: 7,
};

describe('session listing', () => {
  it('gives the --json row DECISIONS fixes, keys in order, times as ISO 8601', () => {
    const row = sessionJson(summary);
    expect(Object.keys(row)).toEqual(['id', 'title', 'source', 'provider', 'model', 'messages', 'status', 'created_at', 'updated_at']);
    expect(row).toEqual({
      id: 's_0123456789ab',
      title: 'Review   PR\n#12',
      source: 'webhook:github-pr',
      provider: 'openrouter',
      model: 'anthropic/claude-sonnet-4.5',
      messages: 7,
      status: 'running',
      created_at: '2026-11-23T11:00:00.000Z',
      updated_at: '2026-11-23T11:58:30.000Z',
    });
  });

  it.each([
    [NOW - 59_000, 'just now'],
    [NOW - 60_000, '1m ago'],
    [NOW - 3_599_000, '59m ago'],
    [NOW - 3_600_000, '1h ago'],
    [NOW - 86_399_000, '23h ago'],
    [NOW - 86_400_000, '1d ago'],
    [NOW - 6 * 86_400_000, '6d ago'],
  ])('says when %d was last active as %j', (at, text) => {
    expect(lastActive(at, NOW)).toBe(text);
  });

  it('gives a date for a week or more back, and for a time after now', () => {
    expect(lastActive(NOW - 7 * 86_400_000, NOW)).toBe(localMinute(NOW - 7 * 86_400_000));
    expect(lastActive(NOW + 5_000, NOW)).toBe(localMinute(NOW + 5_000));
    expect(localMinute(new Date(2026, 0, 2, 3, 4).getTime())).toBe('2026-01-02 03:04');
  });

  it('keeps a title on one line and within its width', () => {
    expect(oneLine('a\n  b\tc', 10)).toBe('a b c');
    expect(oneLine('abcdefghijk', 5)).toBe('abcd…');
  });

  it('fills the table cells, (untitled) for a session without a title', () => {
    expect(sessionCells(summary, NOW)).toEqual(['s_0123456789ab', 'Review PR #12', 'webhook:github-pr', 'openrouter · anthropic/claude-sonnet-4.5', '7', 'running', '1m ago']);
    expect(sessionCells({ ...summary, title: null }, NOW)[1]).toBe('(untitled)');
  });
});
