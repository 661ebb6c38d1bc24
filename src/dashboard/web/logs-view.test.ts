import { describe, expect, it } from 'vitest';
import { DEFAULT_FILTERS, emptyText, fieldsText, logsPath, timeText } from './logs-view.js';

describe('logsPath', () => {
  it('asks for the log and the limit, leaving empty filters out', () => {
    expect(logsPath(DEFAULT_FILTERS)).toBe('/api/logs?log=gateway&limit=200');
  });

  it('trims and encodes every filter', () => {
    expect(logsPath({ log: 'audit', level: 'warn', q: ' a&b=c ', route: 'pr-review', platform: 'telegram' }, 50)).toBe(
      '/api/logs?log=audit&level=warn&q=a%26b%3Dc&route=pr-review&platform=telegram&limit=50',
    );
  });
});

describe('fieldsText', () => {
  it('puts the key fields first, then the rest, values as text', () => {
    expect(fieldsText({ reason: 'bad signature', attempts: 3, route: 'ci', ok: false, gone: undefined })).toEqual(['route=ci', 'ok=false', 'reason=bad signature', 'attempts=3']);
  });

  it('cuts long values', () => {
    const [text] = fieldsText({ body: 'x'.repeat(500) });
    expect(text).toBe(`body=${'x'.repeat(119)}…`);
  });
});

describe('timeText and emptyText', () => {
  it('shows the UTC time without the T and the milliseconds', () => {
    expect(timeText('2026-11-28T18:00:40.554Z')).toBe('2026-11-28 18:00:40');
    expect(timeText(null)).toBe('—');
  });

  it('says what to do next', () => {
    expect(emptyText({ ...DEFAULT_FILTERS, q: 'kiwi' })).toBe('No line of the gateway log matches these filters. Clear a filter to see more.');
    expect(emptyText(DEFAULT_FILTERS)).toBe('The gateway log has no lines yet. Lines appear as Iris runs (iris gateway start); press Refresh to look again.');
  });
});
