// The fallback editors' list edits, pure: each returns the new list (the page then writes it
// whole), or the same list when the edit names nothing (a stale button after a reload).
import type { FallbackEntry } from './fallback-api.js';

export type ChainEdit =
  | { readonly kind: 'add'; readonly entry: FallbackEntry }
  | { readonly kind: 'remove'; readonly index: number }
  | { readonly kind: 'move'; readonly index: number; readonly by: -1 | 1 };

const sameRoute = (a: FallbackEntry, b: FallbackEntry) => a.provider === b.provider && a.model === b.model && (a.base_url ?? '') === (b.base_url ?? '');

/** Whether `entry` is already in the list (routing would skip a repeat, so the editor refuses it). */
export function hasEntry(chain: readonly FallbackEntry[], entry: FallbackEntry): boolean {
  return chain.some((e) => sameRoute(e, entry));
}

export function applyChainEdit(chain: readonly FallbackEntry[], edit: ChainEdit): readonly FallbackEntry[] {
  switch (edit.kind) {
    case 'add':
      return hasEntry(chain, edit.entry) ? chain : [...chain, edit.entry];
    case 'remove':
      return edit.index >= 0 && edit.index < chain.length ? chain.filter((_, i) => i !== edit.index) : chain;
    case 'move': {
      const to = edit.index + edit.by;
      if (edit.index < 0 || edit.index >= chain.length || to < 0 || to >= chain.length) return chain;
      const next = [...chain];
      [next[edit.index], next[to]] = [next[to]!, next[edit.index]!];
      return next;
    }
  }
}

/** `anthropic · claude-x`, with the endpoint when the entry names one. */
export function entryText(entry: FallbackEntry): string {
  return `${entry.provider} · ${entry.model}${entry.base_url ? ` (${entry.base_url})` : ''}`;
}

/** What the page says after an edit was written (announced to screen readers). */
export function editDoneText(edit: ChainEdit, chain: readonly FallbackEntry[], where: string): string {
  switch (edit.kind) {
    case 'add':
      return `Added ${entryText(edit.entry)} to ${where}.`;
    case 'remove':
      return `Removed ${chain[edit.index] ? entryText(chain[edit.index]!) : 'the entry'} from ${where}.`;
    case 'move':
      return `Moved ${chain[edit.index] ? entryText(chain[edit.index]!) : 'the entry'} ${edit.by < 0 ? 'up' : 'down'} in ${where}.`;
  }
}
