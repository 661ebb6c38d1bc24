// How sessions are listed: the `--json` row DECISIONS.md fixes, and the text table.
import type { SessionRecord, SessionSummary } from '../../store/types.js';

export type SessionJson = {
  readonly id: string;
  readonly title: string | null;
  readonly source: string;
  readonly provider: string;
  readonly model: string;
  readonly messages: number;
  readonly status: SessionRecord['status'];
  /** ISO 8601, UTC. */
  readonly created_at: string;
  readonly updated_at: string;
};

export function sessionJson(session: SessionSummary): SessionJson {
  return {
    id: session.id,
    title: session.title,
    source: session.source,
    provider: session.provider,
    model: session.model,
    messages: session.messageCount,
    status: session.status,
    created_at: new Date(session.createdAt).toISOString(),
    updated_at: new Date(session.updatedAt).toISOString(),
  };
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** `2026-11-23 14:05`, in local time. */
export function localMinute(at: number): string {
  const d = new Date(at);
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

/** `just now`, `12m ago`, `5h ago`, `3d ago`; a week or more back (or a clock that ran back): the date. */
export function lastActive(at: number, now: number): string {
  const seconds = Math.floor((now - at) / 1000);
  if (seconds < 0 || seconds >= 7 * 86_400) return localMinute(at);
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h ago`;
  return `${Math.floor(seconds / 86_400)}d ago`;
}

/** At most `max` characters on one line: a title is shown, never allowed to break the table. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export const SESSIONS_HEADER = ['id', 'title', 'source', 'model', 'messages', 'status', 'last active'] as const;

/** The table's cells; the messages column (index 4) is a count. */
export function sessionCells(session: SessionSummary, now: number): string[] {
  return [
    session.id,
    session.title === null ? '(untitled)' : oneLine(session.title, 40),
    session.source,
    oneLine(`${session.provider} · ${session.model}`, 40),
    String(session.messageCount),
    session.status,
    lastActive(session.updatedAt, now),
  ];
}
