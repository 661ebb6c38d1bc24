// Does a payload pass a route's `filters` (DECISIONS.md step 8)? Every filter must match; a filter
// matches when the value at its `field` path is one of its `in` values.
import type { WebhookRoute } from '../config/schema.js';
import { lookupPath } from './payload-path.js';

type FilterValue = WebhookRoute['filters'][number]['in'][number];

/**
 * Strict equality, except that a number and its decimal string are one value, in both directions:
 * `in: ["7"]` matches `number: 7` and `in: [7]` matches an `iid: "7"`, since code hosts and YAML
 * quoting disagree on which is which. "Decimal string" is JavaScript's own spelling (`String(7)`),
 * so `"7.0"` or `"07"` match nothing. `true` and `"true"` stay different: no host mixes those.
 */
function sameValue(actual: unknown, wanted: FilterValue): boolean {
  if (actual === wanted) return true;
  if (typeof actual === 'number' && typeof wanted === 'string') return String(actual) === wanted;
  if (typeof actual === 'string' && typeof wanted === 'number') return actual === String(wanted);
  return false;
}

/**
 * True when every filter matches (so no filters: true). A missing field never matches, not even
 * `in: [null]`; an empty `in` matches nothing; objects and arrays never equal a listed value.
 */
export function matchesFilters(
  filters: WebhookRoute['filters'],
  payload: Readonly<Record<string, unknown>>,
): boolean {
  return filters.every((filter) => {
    const found = lookupPath(payload, filter.field);
    return found.found && filter.in.some((wanted) => sameValue(found.value, wanted));
  });
}
