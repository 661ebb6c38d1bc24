// Words and classes for the Platforms page. Pure, so the tests pin them down.
import type { ConnectionState, OutboxState } from './platforms-api.js';

const CHIP: Readonly<Record<ConnectionState, { readonly label: string; readonly tone: 'ok' | 'bad' | 'idle' }>> = {
  connected: { label: 'Connected', tone: 'ok' },
  disconnected: { label: 'Disconnected', tone: 'bad' },
  not_reported: { label: 'Not reported', tone: 'idle' },
  gateway_stopped: { label: 'Gateway stopped', tone: 'idle' },
  disabled: { label: 'Not enabled', tone: 'idle' },
};

export function connectionChip(state: ConnectionState): { readonly label: string; readonly className: string } {
  const chip = CHIP[state];
  return { label: chip.label, className: `platform-chip platform-chip-${chip.tone}` };
}

/** `45s ago`, `12m ago`, `3h ago`: a code lives an hour, so this is as fine as it needs to be. */
export function ageText(seconds: number): string {
  if (seconds < 60) return `${Math.max(0, Math.floor(seconds))}s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  return `${Math.floor(seconds / 3600)}h ago`;
}

/** `Ada (123)` or `123`: names come from the platform, so they are shown beside the id, never instead of it. */
export function userText(userId: string, userName: string | null): string {
  return userName === null || userName.trim() === '' ? userId : `${userName} (${userId})`;
}

/** The Test button's outcome in words. */
export function testOutcomeText(chat: string, outbox: Pick<OutboxState, 'state' | 'last_error' | 'id'>, gatewayRunning: boolean): string {
  if (outbox.state === 'sent') return `Sent to ${chat} (outbox #${outbox.id}).`;
  if (outbox.state === 'failed') return `Not sent to ${chat}: ${outbox.last_error ?? 'unknown error'} (outbox #${outbox.id}).`;
  const problem = outbox.last_error === null ? '' : ` Last try: ${outbox.last_error}.`;
  return gatewayRunning
    ? `Queued for ${chat} as outbox #${outbox.id}; the gateway sends it.${problem}`
    : `Queued for ${chat} as outbox #${outbox.id}; the gateway sends it when it runs (iris gateway start).${problem}`;
}
