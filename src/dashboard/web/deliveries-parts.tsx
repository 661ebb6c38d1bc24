// Small pieces the Deliveries list and detail share: the state badge and `code` in advice text.
import type { EventState } from './deliveries-api.js';
import { stateTone } from './deliveries-view.js';

export function StateBadge({ state }: { state: EventState }) {
  return <span className={`delivery-state delivery-state-${stateTone(state)}`}>{state}</span>;
}

/** `text with \`a command\`` → the command in <code>. */
export function withCode(text: string) {
  return text.split('`').map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part));
}
