// How the Usage page writes its figures: the same cost words as `iris usage` (an unpriced call is
// said, never shown as $0).
import type { UsageJsonRow } from '../../domain/usage-ledger.js';

const grouped = new Intl.NumberFormat('en-US');

export function tokensText(n: number): string {
  return grouped.format(n);
}

function dollars(usd: number): string {
  return usd > 0 && usd < 0.00005 ? '<$0.0001' : `$${usd.toFixed(4)}`;
}

/** `$0.0123`, `unpriced` (no call of the group had a price), or `$0.0123 + 2 unpriced`. */
export function ledgerCostText(row: Pick<UsageJsonRow, 'cost_usd' | 'unpriced_calls'>): string {
  if (row.cost_usd === null) return row.unpriced_calls > 0 ? 'unpriced' : '—';
  return row.unpriced_calls > 0 ? `${dollars(row.cost_usd)} + ${row.unpriced_calls} unpriced` : dollars(row.cost_usd);
}

/** `+12%`, `−5%`, `±0%`, or `—` when there is nothing to compare with. */
export function changeText(percent: number | null): string {
  if (percent === null) return '—';
  if (percent === 0) return '±0%';
  return percent > 0 ? `+${percent}%` : `−${Math.abs(percent)}%`;
}
