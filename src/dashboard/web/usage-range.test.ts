import { describe, expect, it } from 'vitest';
import { usageTotal, utcDay, type UsageJsonRow } from '../../domain/usage-ledger.js';
import { changeText, ledgerCostText } from './usage-format.js';
import { changePercent, customRange, daysOf, fillDays, lastDays, previousRange, slotRows, usageQuery } from './usage-range.js';

const NOW = Date.parse('2026-11-28T22:15:00Z');
const row = (key: string, fields: Partial<UsageJsonRow> = {}): UsageJsonRow => ({ ...usageTotal([]), key, calls: 1, input_tokens: 10, ...fields });

describe('utcDay', () => {
  it('names the UTC day, whatever the time of day', () => {
    expect(utcDay(Date.parse('2026-11-27T23:59:59.999Z'))).toBe('2026-11-27');
    expect(utcDay(Date.parse('2026-11-28T00:00:00.000Z'))).toBe('2026-11-28');
    expect(utcDay(Date.parse('2026-11-28T01:30:00+02:00'))).toBe('2026-11-27');
  });
});

describe('ranges', () => {
  it('the last 7 days are 7 whole UTC days, today included', () => {
    const week = lastDays(7, NOW);
    expect(week).toEqual({ since: Date.parse('2026-11-22T00:00:00Z'), until: Date.parse('2026-11-29T00:00:00Z') });
    expect(daysOf(week)).toEqual(['2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28']);
  });

  it('the previous period has the same length and ends where the range starts', () => {
    expect(previousRange(lastDays(7, NOW))).toEqual({ since: Date.parse('2026-11-15T00:00:00Z'), until: Date.parse('2026-11-22T00:00:00Z') });
    const custom = customRange('2026-11-01', '2026-11-03');
    expect(custom).toEqual({ ok: true, range: { since: Date.parse('2026-11-01T00:00:00Z'), until: Date.parse('2026-11-04T00:00:00Z') } });
    expect(custom.ok && previousRange(custom.range)).toEqual({ since: Date.parse('2026-10-29T00:00:00Z'), until: Date.parse('2026-11-01T00:00:00Z') });
  });

  it('a custom range needs two real days, the last not before the first', () => {
    expect(customRange('2026-11-03', '2026-11-01')).toEqual({ ok: false, error: 'The last day comes before the first.' });
    expect(customRange('', '2026-11-01')).toEqual({ ok: false, error: 'Pick a first and a last day.' });
    expect(customRange('2026-02-30', '2026-03-01')).toEqual({ ok: false, error: 'Pick a first and a last day.' });
    expect(customRange('2026-11-05', '2026-11-05')).toEqual({ ok: true, range: { since: Date.parse('2026-11-05T00:00:00Z'), until: Date.parse('2026-11-06T00:00:00Z') } });
  });

  it('asks the API what iris usage is asked: ISO instants and the grouping', () => {
    expect(usageQuery(lastDays(7, NOW), 'day')).toBe('since=2026-11-22T00%3A00%3A00Z&until=2026-11-29T00%3A00%3A00Z&by=day');
  });
});

describe('derived rows', () => {
  it('fills every day of the range, keeping the rows that came back', () => {
    const range = { since: Date.parse('2026-11-26T00:00:00Z'), until: Date.parse('2026-11-29T00:00:00Z') };
    const filled = fillDays([row('2026-11-27', { cost_usd: 0.5 })], range);
    expect(filled.map((r) => [r.key, r.calls, r.cost_usd])).toEqual([
      ['2026-11-26', 0, null],
      ['2026-11-27', 1, 0.5],
      ['2026-11-28', 0, null],
    ]);
  });

  it('lists main and all 11 slots in order, then any task the table does not know', () => {
    const rows = slotRows([row('vision'), row('main'), row('someday')]);
    expect(rows.map((r) => [r.key, r.calls])).toEqual([
      ['main', 1], ['vision', 1], ['web_extract', 0], ['compression', 0], ['skills_hub', 0], ['approval', 0], ['mcp', 0],
      ['title_generation', 0], ['triage_specifier', 0], ['kanban_decomposer', 0], ['profile_describer', 0], ['curator', 0], ['someday', 1],
    ]);
  });

  it('totals keep unpriced calls apart and never read an unknown cost as $0', () => {
    const total = usageTotal([row('a', { cost_usd: 0.25 }), row('b', { cost_usd: null, unpriced_calls: 2 })]);
    expect(total).toMatchObject({ calls: 2, input_tokens: 20, cost_usd: 0.25, unpriced_calls: 2 });
    expect(ledgerCostText(total)).toBe('$0.2500 + 2 unpriced');
    expect(ledgerCostText(usageTotal([row('b', { cost_usd: null, unpriced_calls: 1 })]))).toBe('unpriced');
    expect(ledgerCostText(usageTotal([]))).toBe('—');
  });

  it('says the change from the previous period, or that there is none to compare', () => {
    expect(changeText(changePercent(150, 100))).toBe('+50%');
    expect(changeText(changePercent(50, 100))).toBe('−50%');
    expect(changeText(changePercent(5, 5))).toBe('±0%');
    expect(changeText(changePercent(5, 0))).toBe('—');
    expect(changeText(changePercent(null, 1))).toBe('—');
  });
});
