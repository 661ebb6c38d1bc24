// `iris sessions list|show|rename|delete|prune|export`: find a conversation again, read it, name
// it, and tidy up. Reads state.db without creating it; every name resolves as find-session.ts says.
import { findSession } from '../../agent/sessions/find-session.js';
import { sessionCells, sessionJson, SESSIONS_HEADER } from '../../agent/sessions/listing.js';
import { transcriptJson, transcriptMarkdown, transcriptText } from '../../agent/sessions/transcript-views.js';
import { parseDuration } from '../../store/duration.js';
import type { SessionQuery, SessionRecord, SessionSummary, Store } from '../../store/types.js';
import { printData, printJson, writeStdout } from '../console.js';
import { confirm } from '../confirm.js';
import type { HomePaths } from '../../config/home.js';
import { openHome } from '../context.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import { withExistingStore } from '../open-store.js';
import { formatTable } from '../table.js';

export const EXPORT_FORMATS = ['md', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** How many sessions prune names before it says "and N more". */
const PRUNE_SHOWN = 20;

async function homePaths(): Promise<HomePaths> {
  return openHome();
}

/** The store, or a "no session" failure when there is no state.db at all. */
async function withSessions<T>(name: string, work: (store: Store, session: SessionRecord) => Promise<T>): Promise<T> {
  return withExistingStore(
    await homePaths(),
    async (store) => {
      const found = await findSession(store, name);
      if (!found.ok) throw new CliFailure('not_found', found.message);
      return work(store, found.session);
    },
    () => {
      throw new CliFailure('not_found', `no session with the id or title "${name}": no session has been recorded yet`);
    },
  );
}

/** `--source webhook` lists every route's sessions; any other value is matched exactly. */
export function sourceQuery(source: string | undefined): SessionQuery {
  if (source === undefined) return {};
  return source === 'webhook' ? { sourcePrefix: 'webhook:' } : { source };
}

export function parseLimit(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const limit = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(limit) || limit < 1) throw new CliFailure('usage', `--limit must be a positive whole number (got "${text}")`);
  return limit;
}

export async function sessionsList(options: { limit?: string; source?: string; json?: boolean }): Promise<void> {
  const limit = parseLimit(options.limit, 20);
  if (options.source !== undefined && options.source.trim() === '') throw new CliFailure('usage', '--source needs a value: cli, webhook, webhook:<route> or a platform name');
  const rows = await withExistingStore(await homePaths(), (store) => store.listSessions({ ...sourceQuery(options.source), limit }), () => []);
  if (options.json) return printJson(rows.map(sessionJson));
  if (rows.length === 0) return printData(options.source ? `no sessions from ${options.source}` : 'no sessions yet (iris chat starts one)');
  const now = Date.now();
  printData(formatTable(SESSIONS_HEADER, rows.map((row) => sessionCells(row, now)), new Set([4])));
}

async function loadTranscript(store: Store, session: SessionRecord) {
  const messages = await store.loadMessages(session.id);
  const summary: SessionSummary = { ...session, messageCount: messages.length };
  return { summary, messages };
}

export async function sessionsShow(name: string, options: { json?: boolean }): Promise<void> {
  await withSessions(name, async (store, session) => {
    const { summary, messages } = await loadTranscript(store, session);
    if (options.json) printJson(transcriptJson(summary, messages));
    else printData(transcriptText(summary, messages));
  });
}

export async function sessionsExport(name: string, options: { format?: string }): Promise<void> {
  const format = options.format ?? 'md';
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) throw new CliFailure('usage', `--format must be md or json (got "${format}")`);
  await withSessions(name, async (store, session) => {
    const { summary, messages } = await loadTranscript(store, session);
    if (format === 'json') printJson(transcriptJson(summary, messages));
    else writeStdout(transcriptMarkdown(summary, messages));
  });
}

export async function sessionsRename(name: string, title: string, options: { json?: boolean }): Promise<void> {
  const clean = title.replace(/\s+/g, ' ').trim();
  if (!clean) throw new CliFailure('usage', 'the new title is empty');
  await withSessions(name, async (store, session) => {
    const updated = await store.updateSession(session.id, { title: clean });
    if (!updated) throw new CliFailure('not_found', `session ${session.id} was deleted meanwhile`);
    if (options.json) printJson({ id: updated.id, title: updated.title, previous_title: session.title });
    else printData(`session ${updated.id} is now titled "${clean}"`);
  });
}

function describe(session: SessionSummary | SessionRecord): string {
  return `${session.id}${session.title === null ? '' : ` "${session.title}"`}`;
}

export async function sessionsDelete(name: string, options: { yes?: boolean; json?: boolean }): Promise<number> {
  return withSessions(name, async (store, session) => {
    if (session.status === 'running') throw new CliFailure('not_found', `session ${describe(session)} is running; it can be deleted once its run ends`);
    if (!options.yes && !(await confirm(`delete session ${describe(session)} and its messages?`, 'iris sessions delete'))) {
      process.stderr.write('nothing deleted\n');
      return EXIT.failure;
    }
    const deleted = await store.deleteSessions([session.id]);
    if (deleted.length === 0) throw new CliFailure('not_found', `session ${describe(session)} started running (or was deleted) meanwhile; nothing deleted`);
    if (options.json) printJson({ deleted });
    else printData(`deleted session ${describe(session)}`);
    return EXIT.ok;
  });
}

export async function sessionsPrune(options: { olderThan?: string; yes?: boolean; json?: boolean }): Promise<number> {
  if (options.olderThan === undefined) throw new CliFailure('usage', 'prune needs --older-than <duration> (90s, 30m, 12h, 30d, 2w; 0s: every session not running)');
  const age = parseDuration(options.olderThan);
  if (!age.ok) throw new CliFailure('usage', `--older-than "${options.olderThan}" is not a duration (use <n>s|m|h|d|w: 90s, 30m, 12h, 30d, 2w)`);
  const now = Date.now();
  // 0s is "everything not running", including what was touched this very millisecond.
  const query: SessionQuery = age.ms === 0 ? {} : { updatedBefore: now - age.ms };
  return withExistingStore(await homePaths(), async (store) => {
    const old = await store.listSessions(query);
    const candidates = old.filter((session) => session.status !== 'running');
    const running = old.length - candidates.length;
    const keptNote = running > 0 ? `; ${running} running session${running === 1 ? ' is' : 's are'} kept` : '';
    if (candidates.length === 0) {
      if (options.json) printJson({ deleted: [], kept_running: running });
      else printData(`no session to remove${keptNote}`);
      return EXIT.ok;
    }
    const scope = age.ms === 0 ? 'not running' : `not running, last active before ${new Date(now - age.ms).toISOString()}`;
    const listing = candidates.slice(0, PRUNE_SHOWN).map((session) => `  ${describe(session)} (${session.source}, ${session.messageCount} messages)`);
    if (candidates.length > PRUNE_SHOWN) listing.push(`  … and ${candidates.length - PRUNE_SHOWN} more`);
    if (!options.json || !options.yes) {
      process.stderr.write(`${candidates.length} session${candidates.length === 1 ? '' : 's'} to remove (${scope})${keptNote}:\n${listing.join('\n')}\n`);
    }
    if (!options.yes && !(await confirm(`remove ${candidates.length} session${candidates.length === 1 ? '' : 's'} and their messages?`, 'iris sessions prune'))) {
      process.stderr.write('nothing removed\n');
      return EXIT.failure;
    }
    const deleted = await store.deleteSessions(candidates.map((session) => session.id));
    const raced = candidates.length - deleted.length;
    if (options.json) printJson({ deleted, kept_running: running + raced });
    else printData(`removed ${deleted.length} session${deleted.length === 1 ? '' : 's'}${raced > 0 ? ` (${raced} started running meanwhile and ${raced === 1 ? 'was' : 'were'} kept)` : ''}`);
    return EXIT.ok;
  }, () => {
    if (options.json) printJson({ deleted: [], kept_running: 0 });
    else printData('no session to remove');
    return EXIT.ok;
  });
}
