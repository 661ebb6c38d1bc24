// The Sessions page's API: list and search, a transcript, rename, delete, export. Each calls the
// library code `iris sessions list|show|rename|delete|export` calls, and a session is named as
// everywhere else (DECISIONS § Sessions: exact id, unique id prefix of 4+, exact title).
import { findSession } from '../../agent/sessions/find-session.js';
import { sessionJson } from '../../agent/sessions/listing.js';
import type { SessionRecord, Store } from '../../store/types.js';
import { HttpError } from '../http-error.js';
import { EXPORT_FORMATS, exportFile, type ExportFormat } from '../session-export.js';
import { parseListQuery } from '../session-list-query.js';
import { parseRename } from '../session-rename.js';
import { shapeTranscript } from '../session-transcript.js';
import { ANSWERED, type DashboardContext, type RouteArea, type RouteRequest } from './route.js';

/** The store and the session a request names; 404 for no match (or no store yet), 409 when a prefix is ambiguous. */
async function namedSession(context: DashboardContext, name: string): Promise<{ store: Store; session: SessionRecord }> {
  const store = await context.existingStore();
  if (!store) throw new HttpError(404, `no session with the id or title "${name}": no session has been recorded yet`);
  const found = await findSession(store, name);
  if (!found.ok) throw new HttpError(found.code === 'ambiguous' ? 409 : 404, found.message.replace('; iris sessions list shows them', ''));
  return { store, session: found.session };
}

async function summaryOf(store: Store, session: SessionRecord) {
  const messages = await store.loadMessages(session.id);
  return { summary: { ...session, messageCount: messages.length }, messages };
}

function describe(session: SessionRecord): string {
  return `${session.id}${session.title === null ? '' : ` "${session.title}"`}`;
}

function exportFormat(url: URL): ExportFormat {
  for (const name of url.searchParams.keys()) if (name !== 'format') throw new HttpError(400, `unknown parameter "${name.slice(0, 40)}" (known: format)`);
  const format = url.searchParams.get('format') ?? 'md';
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) throw new HttpError(400, `format must be md or json (got "${format.slice(0, 40)}")`);
  return format as ExportFormat;
}

export const sessionRoutes: RouteArea = (context) => {
  /** A write, audited under `action` with the session id (or the name given, when none matched). */
  const audited = <T>(request: RouteRequest, action: string, work: (setTarget: (target: string) => void) => Promise<T>) => {
    let target = request.params.id ?? '';
    return context.audited(request, action, () => target, () => work((id) => (target = id)));
  };

  return [
    {
      method: 'GET',
      path: '/api/sessions',
      run: async ({ url }) => {
        const parsed = parseListQuery(url.searchParams);
        if (!parsed.ok) throw new HttpError(400, parsed.error);
        const store = await context.existingStore();
        if (!store) return { sessions: [], total: 0, scan_limited: false };
        const found = await store.sessionBrowser.search(parsed.query);
        return { sessions: found.sessions.map(sessionJson), total: found.total, scan_limited: found.scanLimited };
      },
    },
    {
      method: 'GET',
      path: '/api/sessions/:id',
      run: async ({ params }) => {
        const { store, session } = await namedSession(context, params.id!);
        const [timed, calls] = await Promise.all([store.sessionBrowser.timedMessages(session.id), store.sessionBrowser.usageOf(session.id)]);
        return shapeTranscript({ ...session, messageCount: timed.length }, timed, calls);
      },
    },
    {
      method: 'PATCH',
      path: '/api/sessions/:id',
      run: (request) =>
        audited(request, 'session.rename', async (setTarget) => {
          const rename = parseRename(await context.readJson(request.req));
          if (!rename.ok) throw new HttpError(400, rename.error);
          const { store, session } = await namedSession(context, request.params.id!);
          setTarget(session.id);
          const updated = await store.updateSession(session.id, { title: rename.title });
          if (!updated) throw new HttpError(404, `session ${session.id} was deleted meanwhile`);
          return { id: updated.id, title: updated.title, previous_title: session.title };
        }),
    },
    {
      method: 'DELETE',
      path: '/api/sessions/:id',
      run: (request) =>
        audited(request, 'session.delete', async (setTarget) => {
          const { store, session } = await namedSession(context, request.params.id!);
          setTarget(session.id);
          if (session.status === 'running') throw new HttpError(409, `session ${describe(session)} is running; it can be deleted once its run ends`);
          const deleted = await store.deleteSessions([session.id]);
          if (deleted.length === 0) throw new HttpError(409, `session ${describe(session)} started running (or was deleted) meanwhile; nothing deleted`);
          return { deleted };
        }),
    },
    {
      method: 'GET',
      path: '/api/sessions/:id/export',
      run: async ({ url, params, res }) => {
        const format = exportFormat(url);
        const { store, session } = await namedSession(context, params.id!);
        const { summary, messages } = await summaryOf(store, session);
        const file = exportFile(summary, messages, format);
        res.writeHead(200, {
          'content-type': file.contentType,
          'content-length': Buffer.byteLength(file.body),
          'content-disposition': `attachment; filename="${file.filename}"`,
          'x-content-type-options': 'nosniff',
          'cache-control': 'no-store',
        });
        res.end(file.body);
        return ANSWERED;
      },
    },
  ];
};
