// The health strip's decisions, pure: the answer of GET /api/health as the chips to show, each
// with its words and a tone (ok / warn / bad). The words always carry the state, so the colour
// is never the only sign.
import type { Health } from './health-api.js';

export type Tone = 'ok' | 'warn' | 'bad';

export type Chip = {
  readonly key: string;
  readonly text: string;
  readonly tone: Tone;
  /** The longer story, for the tooltip and screen readers. */
  readonly detail: string;
};

/** An inbox this deep with a gateway running means work is piling up faster than it is done. */
export const DEEP_INBOX = 50;

const ROLE_WORDS = { all: 'listener + worker', listener: 'listener', worker: 'worker' } as const;

export function gatewayChip(health: Health): Chip {
  const { gateway, listener } = health;
  const roles = gateway.processes.map((p) => `${ROLE_WORDS[p.role]} (pid ${p.pid})`).join(', ');
  if (gateway.processes.length === 0) {
    const why = gateway.state === 'stale_pid_file' ? ' (stale pid file)' : gateway.state === 'bad_pid_file' ? ' (unreadable pid file)' : '';
    return { key: 'gateway', text: `gateway: not running${why}`, tone: 'bad', detail: 'Start it with: iris gateway start' };
  }
  if (!gateway.listening) return { key: 'gateway', text: 'gateway: worker only', tone: 'warn', detail: `${roles}; no listener takes webhooks or chat messages in` };
  if (!gateway.working) return { key: 'gateway', text: 'gateway: listener only', tone: 'warn', detail: `${roles}; no worker runs what comes in` };
  if (!listener.answers_health) return { key: 'gateway', text: 'gateway: running, not answering', tone: 'warn', detail: `${roles}; ${listener.url}/health did not answer` };
  return { key: 'gateway', text: 'gateway: running', tone: 'ok', detail: roles };
}

export function listenerChip(health: Health): Chip | undefined {
  if (!health.gateway.listening) return undefined;
  const where = health.listener.url.replace(/^https?:\/\//, '');
  return health.listener.answers_health
    ? { key: 'listener', text: `listener: ${where}`, tone: 'ok', detail: `${health.listener.url} answers /health` }
    : { key: 'listener', text: `listener: ${where} (no answer)`, tone: 'warn', detail: `${health.listener.url}/health did not answer within a second` };
}

export function platformChips(health: Health): Chip[] {
  return health.platforms.map((platform) => {
    const since = platform.since === null ? '' : ` since ${platform.since}`;
    if (platform.connected) return { key: `platform-${platform.name}`, text: `${platform.name}: connected`, tone: 'ok', detail: `${platform.detail}${since}` };
    const never = platform.since === null;
    return {
      key: `platform-${platform.name}`,
      text: `${platform.name}: ${never ? 'unknown' : 'disconnected'}`,
      tone: never ? 'warn' : 'bad',
      detail: `${platform.detail}${since}`,
    };
  });
}

export function inboxChip(health: Health): Chip {
  const { accepted, running, done, delivering } = health.inbox;
  const depth = accepted + running + done + delivering;
  const detail = `${accepted} accepted, ${running} running, ${done} done, ${delivering} delivering; chat: ${health.chat.inbound} waiting, ${health.chat.outbox} to send`;
  const stuck = depth > 0 && !health.gateway.working;
  return { key: 'inbox', text: `inbox: ${depth}${stuck ? ' (no worker)' : ''}`, tone: stuck || depth >= DEEP_INBOX ? 'warn' : 'ok', detail };
}

export function runsChip(health: Health): Chip {
  const n = health.runs_in_progress;
  const runs = `${n} webhook run${n === 1 ? '' : 's'}`;
  // Marked running with no process working: cut off when their gateway stopped; the next start runs them again.
  if (n > 0 && !health.gateway.working) return { key: 'runs', text: `runs: ${n} cut off`, tone: 'warn', detail: `${runs} marked running with no gateway working: they run again when one starts` };
  return { key: 'runs', text: `runs: ${n} running`, tone: 'ok', detail: `${runs} in progress` };
}

export function failingChip(health: Health): Chip {
  const events = health.failing.webhook_events_24h.count;
  const sends = health.failing.chat_sends_24h.count;
  const count = events + sends;
  const parts = [
    ...(events > 0 ? [`${events} webhook event${events === 1 ? '' : 's'} (see Deliveries)`] : []),
    ...(sends > 0 ? [`${sends} chat repl${sends === 1 ? 'y' : 'ies'} not sent (see Logs)`] : []),
  ];
  return {
    key: 'failing',
    text: `failed deliveries (24 h): ${count}`,
    tone: count > 0 ? 'bad' : 'ok',
    detail: count > 0 ? `Failed in the last 24 hours: ${parts.join('; ')}` : 'No webhook event or chat reply failed in the last 24 hours',
  };
}

export function healthChips(health: Health): Chip[] {
  const listener = listenerChip(health);
  return [gatewayChip(health), ...(listener ? [listener] : []), ...platformChips(health), inboxChip(health), runsChip(health), failingChip(health)];
}

export const TONE_WORDS: Readonly<Record<Tone, string>> = { ok: 'ok', warn: 'warning', bad: 'problem' };
