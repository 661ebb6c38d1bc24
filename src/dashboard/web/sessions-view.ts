// How the Sessions page words things: empty states that say what to do next, the source filter's
// choices per tab, token and cost lines. Pure, so each wording is tested without a browser.
import { compactNumber, costText } from './format.js';
import type { TabId, Turn, UsageTotals } from './sessions-api.js';

const PERSON = ['cli', 'dashboard'];
const PLATFORMS = ['telegram', 'discord', 'slack', 'signal', 'sms'];

export type SourceOption = { readonly value: string; readonly label: string };

/** The source filter's choices for a tab: the usual sources plus every route seen in the list. */
export function sourceOptions(tab: TabId, seen: Iterable<string>): SourceOption[] {
  const routes = [...new Set([...seen].filter((source) => source.startsWith('webhook:')))].sort();
  const automation: SourceOption[] = [
    { value: 'webhook:', label: 'Webhooks (every route)' },
    ...routes.map((source) => ({ value: source, label: `Webhook route ${source.slice('webhook:'.length)}` })),
    ...PLATFORMS.map((platform) => ({ value: platform, label: platform[0]!.toUpperCase() + platform.slice(1) })),
  ];
  const chats: SourceOption[] = [
    { value: 'cli', label: 'CLI (iris chat)' },
    { value: 'dashboard', label: 'Dashboard chat' },
  ];
  const any = { value: '', label: 'Any source' };
  if (tab === 'chats') return [any, ...chats];
  if (tab === 'automation') return [any, ...automation];
  return [any, ...chats, ...automation];
}

/** Whether a source belongs on a tab (a filter kept from another tab may not). */
export function sourceFitsTab(tab: TabId, source: string): boolean {
  if (source === '' || tab === 'all') return true;
  return PERSON.includes(source) === (tab === 'chats');
}

/** What an empty list says: why it is empty and what to do next. */
export function emptyText(tab: TabId, q: string, source: string): string {
  if (q.trim() !== '') return `No session matches "${q.trim()}". Try another word, or search All.`;
  if (source !== '') return `No sessions from ${source} here. Choose “Any source” to see the rest.`;
  if (tab === 'chats') return 'No chats yet: start one on the Chat page or with `iris chat`.';
  if (tab === 'automation') return 'No automation runs yet: webhook routes and chat platforms run here once the gateway (`iris gateway run`) receives events.';
  return 'No sessions yet: start a chat on the Chat page or with `iris chat`.';
}

/** `1.2k in · 300 out · 40 cached · 12 cache write · $0.01` (unpriced calls said out loud). */
export function tokensText(totals: UsageTotals): string {
  const parts = [`${compactNumber(totals.input_tokens)} in`, `${compactNumber(totals.output_tokens)} out`];
  if (totals.cached_tokens > 0) parts.push(`${compactNumber(totals.cached_tokens)} cached`);
  if (totals.cache_write_tokens > 0) parts.push(`${compactNumber(totals.cache_write_tokens)} cache write`);
  const unpriced = totals.unpriced_calls > 0 ? `${totals.unpriced_calls} unpriced call${totals.unpriced_calls === 1 ? '' : 's'}` : '';
  if (totals.cost_usd === null) parts.push(totals.calls === 0 ? 'no model calls' : 'unpriced');
  else parts.push(unpriced ? `${costText(totals.cost_usd)} + ${unpriced}` : costText(totals.cost_usd));
  return parts.join(' · ');
}

/** `openai · gpt-5` (a fallback adds another), and the aux slots the turn used. */
export function turnModels(turn: Turn): string {
  const models = turn.models.map((m) => `${m.provider} · ${m.model}`).join(', ');
  const tasks = turn.tasks.length > 0 ? ` (+ ${turn.tasks.join(', ')})` : '';
  return `${models || 'no main-model call recorded'}${tasks}`;
}

/** `just now`, `12m ago`, `5h ago`, `3d ago`; older: the date. */
export function lastActive(iso: string, now: number): string {
  const at = Date.parse(iso);
  const seconds = Math.floor((now - at) / 1000);
  if (!Number.isFinite(seconds) || seconds < 0 || seconds >= 7 * 86_400) return iso.slice(0, 10);
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h ago`;
  return `${Math.floor(seconds / 86_400)}d ago`;
}

/** The tab after a key press on the tab list (arrows wrap, Home/End jump); undefined for other keys. */
export function tabAfterKey(tabs: readonly TabId[], current: TabId, key: string): TabId | undefined {
  const index = tabs.indexOf(current);
  if (key === 'ArrowRight') return tabs[(index + 1) % tabs.length];
  if (key === 'ArrowLeft') return tabs[(index - 1 + tabs.length) % tabs.length];
  if (key === 'Home') return tabs[0];
  if (key === 'End') return tabs[tabs.length - 1];
  return undefined;
}
