// How numbers and assignments read on the page.
import { assignmentText, type Assignment } from '../../domain/assignment.js';
import type { ModelDetails } from './api-types.js';

// The same words as `iris model`.
export { assignmentText, type Assignment };

export function isAuto({ provider, model }: Assignment): boolean {
  return assignmentText({ provider, model }) === 'auto';
}

/** 1234 → `1.2k`, 2_500_000 → `2.5M`. */
export function compactNumber(value: number): string {
  const abs = Math.abs(value);
  const scaled = (n: number, suffix: string) => `${Number((value / n).toFixed(n === 1 ? 0 : 1))}${suffix}`;
  if (abs >= 1_000_000_000) return scaled(1_000_000_000, 'B');
  if (abs >= 1_000_000) return scaled(1_000_000, 'M');
  if (abs >= 1_000) return scaled(1_000, 'k');
  return String(Math.round(value));
}

/** 200000 → `200k context`; 1047576 → `1M context`. */
export function contextText(tokens: number): string {
  if (tokens >= 1_000_000) return `${Number((tokens / 1_048_576).toFixed(1))}M context`;
  return `${Math.round(tokens / 1_000)}k context`;
}

export function costText(usd: number | null): string {
  if (usd === null) return 'unknown';
  if (usd === 0) return '$0.00';
  if (usd < 0.01) return '< $0.01';
  return `$${usd.toFixed(2)}`;
}

/** `$3 / $15 per M tokens`, or '' when the price is not known. */
export function priceText(details: ModelDetails | undefined): string {
  const price = details?.price;
  if (!price) return '';
  const usd = (n: number) => `$${Number(n.toFixed(3))}`;
  return `${usd(price.input)} in · ${usd(price.output)} out per M tokens`;
}
