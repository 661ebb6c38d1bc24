// The REPL's session commands: /sessions (the recent ones), /resume <id-or-title>, /title <text>.
import type { Agent, AgentSession } from '../../agent/agent.js';
import { findSession } from '../../agent/sessions/find-session.js';
import { sessionCells, SESSIONS_HEADER } from '../../agent/sessions/listing.js';
import type { Store } from '../../store/types.js';
import { formatTable } from '../table.js';

export type SessionCommand =
  | { readonly kind: 'sessions' }
  | { readonly kind: 'resume'; readonly name: string }
  | { readonly kind: 'title'; readonly title: string };

/** How many sessions /sessions lists. */
const RECENT = 10;

/** The command a REPL line asks for, if it is one of these three (`/resume` alone is one, missing its name). */
export function parseSessionCommand(line: string): SessionCommand | undefined {
  const match = /^\/(sessions|resume|title)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (!match) return undefined;
  const rest = (match[2] ?? '').replace(/\s+/g, ' ').trim();
  if (match[1] === 'sessions') return { kind: 'sessions' };
  if (match[1] === 'resume') return { kind: 'resume', name: rest };
  return { kind: 'title', title: rest };
}

export type SessionCommandOutcome = { readonly session: AgentSession; readonly text: string };

export async function runSessionCommand(
  command: SessionCommand,
  context: { readonly agent: Agent; readonly store: Store; readonly current: AgentSession },
): Promise<SessionCommandOutcome> {
  const { agent, store, current } = context;
  const stay = (text: string): SessionCommandOutcome => ({ session: current, text });
  switch (command.kind) {
    case 'sessions': {
      const recent = await store.listSessions({ limit: RECENT });
      const now = Date.now();
      const rows = recent.map((s) => [s.id === current.record.id ? '*' : '', ...sessionCells(s, now)]);
      return stay(`${formatTable(['', ...SESSIONS_HEADER], rows, new Set([5]))}\n(* this session; /resume <id-or-title> continues another)`);
    }
    case 'resume': {
      if (!command.name) return stay('/resume needs a session id, a unique id prefix (4+ characters) or a title; /sessions lists them');
      const found = await findSession(store, command.name);
      if (!found.ok) return stay(found.message);
      if (found.session.id === current.record.id) return stay(`already in session ${current.record.id}`);
      const resumed = await agent.resumeSession(found.session.id);
      if (!resumed) return stay(`session ${found.session.id} was deleted meanwhile`);
      const title = resumed.record.title === null ? '' : ` "${resumed.record.title}"`;
      const count = resumed.messages.length;
      return {
        session: resumed,
        text: `resumed session ${resumed.record.id}${title} on ${resumed.record.provider} · ${resumed.record.model} (${count} message${count === 1 ? '' : 's'})`,
      };
    }
    case 'title': {
      if (!command.title) return stay('/title needs the new title');
      const updated = await store.updateSession(current.record.id, { title: command.title });
      if (updated) current.record = updated;
      return stay(`session ${current.record.id} is now titled "${command.title}"`);
    }
  }
}
