// The Chat page's API (docs/dashboard.md § Chat): sessions with source `dashboard`, a message
// starts a run of the agent `iris chat` runs, its events stream to every tab watching the session,
// Stop ends it, and approvals are answered here. Every write is in the audit log.
import type { SessionRecord } from '../../store/types.js';
import type { Identity } from '../auth/sign-in.js';
import { DASHBOARD_SOURCE, chatRunKind, createChatAgent } from '../chat/agent-run.js';
import { parseApprovalBody, parseMessageBody } from '../chat/chat-bodies.js';
import { parseChatLine } from '../chat/chat-commands.js';
import { itemsFromMessages } from '../chat/chat-items.js';
import { redactText } from '../../log/redact.js';
import { streamSessionEvents } from '../chat/event-stream.js';
import { createRunManager, type RunManager } from '../chat/run-manager.js';
import { HttpError } from '../http-error.js';
import { ANSWERED, type DashboardContext, type RouteArea } from './route.js';

/** How many recent chats the picker lists. */
const RECENT_CHATS = 30;
/** How long POST …/stop waits for the run to wind down before it answers anyway. */
const STOP_WAIT_MS = 10_000;

const managers = new WeakMap<DashboardContext, RunManager>();

/** How many chats of this dashboard are answering now (a profile switch waits for none). */
export function runningChats(context: DashboardContext): number {
  return managers.get(context)?.runningCount() ?? 0;
}

/** The dashboard is shutting down: its chat runs are stopped (server.ts calls this from close). */
export async function closeChatRuns(context: DashboardContext): Promise<void> {
  await managers.get(context)?.close();
}

export function chatSessionJson(record: SessionRecord) {
  return {
    id: record.id,
    title: record.title,
    source: record.source,
    provider: record.provider,
    model: record.model,
    status: record.status,
    created_at: new Date(record.createdAt).toISOString(),
    updated_at: new Date(record.updatedAt).toISOString(),
  };
}

export const chatRoutes: RouteArea = (context) => {
  const manager = createRunManager();
  managers.set(context, manager);
  const agent = createChatAgent(context);

  const sessionView = (record: SessionRecord) => ({
    session: chatSessionJson(record),
    model: { provider: record.provider, model: record.model },
    running: manager.isRunning(record.id),
  });

  async function existing(id: string): Promise<SessionRecord> {
    const store = await context.existingStore();
    const record = await store?.getSession(id);
    if (!record) throw new HttpError(404, `no session ${id}`);
    return record;
  }

  async function storedItems(id: string) {
    const store = await context.store();
    return itemsFromMessages(await store.loadMessages(id), redactText);
  }

  async function postMessage(id: string, body: unknown, identity: Identity) {
    const text = parseMessageBody(body);
    if (!text.ok) throw new HttpError(400, text.error);
    await existing(id);
    if (manager.isRunning(id)) throw new HttpError(409, 'this chat is still answering: wait, or Stop it first');
    const line = parseChatLine(text.value);
    switch (line.kind) {
      case 'reply':
        return { reply: line.text };
      case 'model':
      case 'title': {
        const done = line.kind === 'model' ? await agent.switchModel(id, line.line) : await agent.setTitle(id, line.title);
        return { reply: done.reply, ...sessionView(done.record) };
      }
      case 'message': {
        const history = await storedItems(id);
        const started = manager.start(id, { text: line.text, history }, agent.turn(id, line.text, chatRunKind(identity)));
        if (started.ok) return { status: 202, body: { run: started.runId } };
        if (started.code === 'busy') throw new HttpError(409, 'this chat is still answering: wait, or Stop it first');
        if (started.code === 'full') throw new HttpError(429, 'too many chats are answering at once: wait for one to finish');
        throw new HttpError(503, 'the dashboard is shutting down');
      }
    }
  }

  return [
    {
      method: 'GET',
      path: '/api/chat/sessions',
      run: async () => {
        const store = await context.existingStore();
        if (!store) return { sessions: [] };
        const lists = await Promise.all([DASHBOARD_SOURCE, 'cli'].map((source) => store.listSessions({ source, limit: RECENT_CHATS })));
        const recent = lists.flat().sort((a, b) => b.updatedAt - a.updatedAt).slice(0, RECENT_CHATS);
        return { sessions: recent.map((record) => ({ ...chatSessionJson(record), messages: record.messageCount, running: manager.isRunning(record.id) })) };
      },
    },
    {
      method: 'POST',
      path: '/api/chat/sessions',
      run: (request) => {
        let target = '';
        return context.audited(request, 'chat.session.create', () => target, async () => {
          const record = await agent.newSession();
          target = record.id;
          return { status: 201, body: sessionView(record) };
        });
      },
    },
    { method: 'GET', path: '/api/chat/sessions/:id', run: async ({ params }) => sessionView(await existing(params.id!)) },
    {
      method: 'POST',
      path: '/api/chat/sessions/:id/messages',
      run: (request) =>
        context.audited(request, 'chat.message', () => request.params.id!, async () => postMessage(request.params.id!, await context.readJson(request.req), request.identity)),
    },
    {
      method: 'GET',
      path: '/api/chat/sessions/:id/events',
      run: async ({ req, res, params }) => {
        const id = params.id!;
        const record = await existing(id);
        await streamSessionEvents(req, res, id, {
          manager,
          storedItems: () => storedItems(id),
          header: { session: chatSessionJson(record), model: { provider: record.provider, model: record.model } },
        });
        return ANSWERED;
      },
    },
    {
      method: 'POST',
      path: '/api/chat/sessions/:id/stop',
      run: (request) =>
        context.audited(request, 'chat.stop', () => request.params.id!, async () => {
          const id = request.params.id!;
          await existing(id);
          const finished = manager.finished(id);
          if (!finished || !manager.stop(id)) throw new HttpError(409, 'nothing is running in this chat');
          let timer: ReturnType<typeof setTimeout> | undefined;
          await Promise.race([finished, new Promise((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)))]);
          clearTimeout(timer);
          return { stopped: true };
        }),
    },
    {
      method: 'POST',
      path: '/api/chat/approvals/:id',
      run: (request) => {
        const id = request.params.id!;
        let target = id;
        return context.audited(request, 'chat.approve', () => target, async () => {
          const decision = parseApprovalBody(await context.readJson(request.req));
          if (!decision.ok) throw new HttpError(400, decision.error);
          const session = manager.approvalSession(id);
          target = `${id} (${decision.value ? 'approve' : 'deny'}${session ? `, session ${session}` : ''})`;
          if (!session || !manager.answer(id, decision.value)) throw new HttpError(404, 'no approval waits with that id (answered, timed out or the run ended)');
          return { approved: decision.value };
        });
      },
    },
  ];
};
