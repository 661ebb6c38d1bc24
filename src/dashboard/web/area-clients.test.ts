// Each page's client (kanban, skills, fallbacks, webhooks, platforms, deliveries) on the one API
// client: the exact method, path and body of every call, the token on each, and an answer of the
// wrong shape coming back as a message rather than as data.
import { describe, expect, it } from 'vitest';
import { createApi, TOKEN_HEADER } from './api.js';
import { chatApi } from './chat-api.js';
import { profilesClient } from './profiles-api.js';
import { createSessionsApi } from './sessions-api.js';
import { createDeliveriesApi } from './deliveries-api.js';
import { fallbacksClient } from './fallback-api.js';
import { createKanbanApi } from './kanban-api.js';
import { platformsClient } from './platforms-api.js';
import { skillsClient } from './skills-api.js';
import { webhooksClient } from './webhooks-api.js';

type Seen = [method: string, url: string, body: unknown, token: string | undefined];

/** A server that answers every request with `answer(url)` (status, body), recording what it was asked. */
function recordingApi(answer: (url: string, method: string) => [number, unknown] = () => [200, { unexpected: true }]) {
  const seen: Seen[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = init?.method ?? 'GET';
    const headers = new Headers(init?.headers);
    seen.push([method, url, typeof init?.body === 'string' ? JSON.parse(init.body) : undefined, headers.get(TOKEN_HEADER) ?? undefined]);
    const [status, body] = answer(url, method);
    return new Response(JSON.stringify(body), { status });
  };
  return { api: createApi('tok', fetchFn, () => {}), seen };
}

describe('the area clients', () => {
  it('kanban: board, card, add (body only when given), move, specify, decompose', async () => {
    const { api, seen } = recordingApi();
    const kanban = createKanbanApi(api);
    const results = [await kanban.board(), await kanban.card(3), await kanban.add('Fix it', ''), await kanban.add('Fix it', 'details'), await kanban.move(3, 'doing'), await kanban.specify(3), await kanban.decompose(3)];
    expect(seen).toEqual([
      ['GET', '/api/kanban', undefined, 'tok'],
      ['GET', '/api/kanban/3', undefined, 'tok'],
      ['POST', '/api/kanban', { title: 'Fix it' }, 'tok'],
      ['POST', '/api/kanban', { title: 'Fix it', body: 'details' }, 'tok'],
      ['PATCH', '/api/kanban/3', { status: 'doing' }, 'tok'],
      ['POST', '/api/kanban/3/specify', undefined, 'tok'],
      ['POST', '/api/kanban/3/decompose', undefined, 'tok'],
    ]);
    // `{unexpected: true}` is no board, card or task: each says so instead of passing it on.
    expect(results.map((result) => result.ok)).toEqual([false, false, false, false, false, false, false]);
  });

  it('skills: list, install, remove (a name is encoded), curator, apply; a hub search that fails still lists its candidates', async () => {
    const candidates = { query: 'lint', ranked: false, results: [], warnings: [], error: 'the skills_hub slot failed: HTTP 503' };
    const { api, seen } = recordingApi((url) => (url.startsWith('/api/skills/hub') ? [502, candidates] : [200, { unexpected: true }]));
    const skills = skillsClient(api);
    await skills.list();
    await skills.install('lint');
    await skills.remove('a b');
    await skills.curator();
    await skills.apply(['archive:lint']);
    expect(await skills.search('lint & fix')).toEqual({ ok: true, value: candidates });
    expect(seen).toEqual([
      ['GET', '/api/skills', undefined, 'tok'],
      ['POST', '/api/skills', { name: 'lint' }, 'tok'],
      ['DELETE', '/api/skills/a%20b', undefined, 'tok'],
      ['GET', '/api/curator', undefined, 'tok'],
      ['POST', '/api/curator/apply', { proposals: ['archive:lint'] }, 'tok'],
      ['GET', '/api/skills/hub?q=lint%20%26%20fix', undefined, 'tok'],
    ]);
  });

  it('fallbacks: list, a task chain, the global list, and a Test whose 502 still carries the attempts', async () => {
    const failed = { ok: false, task: 'vision', error: 'every route failed', latency_ms: 12, attempts: [{ provider: 'openai', model: 'gpt-4.1', reason: 'chain', outcome: 'failed', detail: 'HTTP 503' }] };
    const { api, seen } = recordingApi((url) => (url === '/api/model/test' ? [502, failed] : [200, { unexpected: true }]));
    const fallbacks = fallbacksClient(api);
    const entry = { provider: 'anthropic', model: 'claude-haiku-4-5' };
    await fallbacks.list();
    await fallbacks.setChain('vision', [entry]);
    await fallbacks.setGlobal([entry]);
    expect(await fallbacks.test('vision')).toEqual({ ok: true, value: failed });
    expect(seen).toEqual([
      ['GET', '/api/model/fallbacks', undefined, 'tok'],
      ['PUT', '/api/model/fallbacks/vision', { chain: [entry] }, 'tok'],
      ['PUT', '/api/model/fallbacks', { fallback_providers: [entry] }, 'tok'],
      ['POST', '/api/model/test', { task: 'vision' }, 'tok'],
    ]);
  });

  it('webhooks, platforms and deliveries: every call with its path and body', async () => {
    const { api, seen } = recordingApi();
    const webhooks = webhooksClient(api);
    await webhooks.list();
    await webhooks.subscribe({ name: 'ci', events: ['push'], deliver: 'log', deliver_extra: {} });
    await webhooks.remove('ci');
    await webhooks.test('ci');
    const platforms = platformsClient(api);
    await platforms.list();
    await platforms.approve('telegram', 'K7Q2M9XD');
    await platforms.revoke('telegram', '4242');
    await platforms.test('telegram', null);
    await platforms.test('telegram', '-100200');
    await platforms.outbox('telegram', 9);
    const deliveries = createDeliveriesApi(api);
    await deliveries.detail('12');
    await deliveries.redeliver(12);
    await deliveries.rerun(12);
    expect(seen).toEqual([
      ['GET', '/api/webhooks', undefined, 'tok'],
      ['POST', '/api/webhooks', { name: 'ci', events: ['push'], deliver: 'log', deliver_extra: {} }, 'tok'],
      ['DELETE', '/api/webhooks/ci', undefined, 'tok'],
      ['POST', '/api/webhooks/ci/test', {}, 'tok'],
      ['GET', '/api/platforms', undefined, 'tok'],
      ['POST', '/api/platforms/telegram/pairing/approve', { code: 'K7Q2M9XD' }, 'tok'],
      ['POST', '/api/platforms/telegram/pairing/revoke', { user: '4242' }, 'tok'],
      ['POST', '/api/platforms/telegram/test', {}, 'tok'],
      ['POST', '/api/platforms/telegram/test', { chat: '-100200' }, 'tok'],
      ['GET', '/api/platforms/telegram/outbox/9', undefined, 'tok'],
      ['GET', '/api/deliveries/12', undefined, 'tok'],
      ['POST', '/api/deliveries/12/redeliver', undefined, 'tok'],
      ['POST', '/api/deliveries/12/rerun', undefined, 'tok'],
    ]);
  });

  it('chat, sessions and profiles: every call with its path and body; an export names its file', async () => {
    const { api, seen } = recordingApi((url) => (url.includes('/export') ? [500, { error: 'disk full' }] : [200, { unexpected: true }]));
    const chat = chatApi(api);
    await chat.list();
    await chat.create();
    await chat.get('s_1');
    await chat.send('s_1', 'hello');
    await chat.stop('s_1');
    await chat.answer('ap 1', 'deny');
    const sessions = createSessionsApi(api);
    await sessions.transcript('s_1');
    await sessions.rename('s_1', 'New name');
    await sessions.remove('s_1');
    expect(await sessions.exportFile('s_1', 'md')).toEqual({ ok: false, error: 'disk full' });
    const profiles = profilesClient(api);
    await profiles.list();
    await profiles.create('work');
    await profiles.create('work2', 'work');
    await profiles.edit('work', 'Work things');
    await profiles.describe('work');
    await profiles.remove('work');
    await profiles.switchTo('work');
    expect(seen).toEqual([
      ['GET', '/api/chat/sessions', undefined, 'tok'],
      ['POST', '/api/chat/sessions', {}, 'tok'],
      ['GET', '/api/chat/sessions/s_1', undefined, 'tok'],
      ['POST', '/api/chat/sessions/s_1/messages', { text: 'hello' }, 'tok'],
      ['POST', '/api/chat/sessions/s_1/stop', {}, 'tok'],
      ['POST', '/api/chat/approvals/ap%201', { decision: 'deny' }, 'tok'],
      ['GET', '/api/sessions/s_1', undefined, 'tok'],
      ['PATCH', '/api/sessions/s_1', { title: 'New name' }, 'tok'],
      ['DELETE', '/api/sessions/s_1', undefined, 'tok'],
      ['GET', '/api/sessions/s_1/export?format=md', undefined, 'tok'],
      ['GET', '/api/profiles', undefined, 'tok'],
      ['POST', '/api/profiles', { name: 'work' }, 'tok'],
      ['POST', '/api/profiles', { name: 'work2', clone_from: 'work' }, 'tok'],
      ['PATCH', '/api/profiles/work', { description: 'Work things' }, 'tok'],
      ['POST', '/api/profile/describe', { profile: 'work' }, 'tok'],
      ['DELETE', '/api/profiles/work', undefined, 'tok'],
      ['POST', '/api/profiles/switch', { name: 'work' }, 'tok'],
    ]);
  });
});
