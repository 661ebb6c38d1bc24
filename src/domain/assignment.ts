// Which model a slot is assigned, and what one change of the auxiliary slots aims at: the words
// shared by `iris model`, the dashboard's server and its page (which imports this file too, so it
// imports nothing).

export type Assignment = { readonly provider: string; readonly model: string };

/** `auto`, `provider · model`, or `provider (default model)`: the same words everywhere. */
export function assignmentText({ provider, model }: Assignment): string {
  const p = provider.trim();
  const m = model.trim();
  if ((p === '' || p === 'auto') && m === '') return 'auto';
  if (m === '') return `${p} (default model)`;
  return `${p || 'auto'} · ${m}`;
}

/** An auxiliary change: one slot, all 11 slots, or all 11 back on `auto`. */
export type AuxTarget = { readonly kind: 'one'; readonly task: string } | { readonly kind: 'all' } | { readonly kind: 'reset' };

// POST /api/model/set says "all" and "reset" through its `task` string (DECISIONS.md fixes that
// wire format); these two values exist only there, translated at the edge by the two functions
// below.
const WIRE_ALL = '';
const WIRE_RESET = '__reset__';

export function auxTargetFromWire(task: string): AuxTarget {
  if (task === WIRE_ALL) return { kind: 'all' };
  if (task === WIRE_RESET) return { kind: 'reset' };
  return { kind: 'one', task };
}

export function auxTargetToWire(target: AuxTarget): string {
  switch (target.kind) {
    case 'all':
      return WIRE_ALL;
    case 'reset':
      return WIRE_RESET;
    case 'one':
      return target.task;
  }
}
