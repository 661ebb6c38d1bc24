// web_extract end to end: `iris chat -q` (the built CLI) against the fake model upstream and a
// local page server. The main model asks for a page; a long one goes to the web_extract slot.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPageServer, type PageServer } from '../fakes/page-server.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { longPage } from '../fakes/web-pages.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';
import { LOOPBACK_FORMS } from '../helpers/loopback-forms.js';

let fake: FakeUpstream;
let site: PageServer;
let dir: string;
let home: string;
beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  site = await startPageServer();
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
  await mkdir(join(dir, 'work'));
});
afterEach(async () => {
  await site.close();
  await removeDir(dir);
});

async function configure(extra: string) {
  await writeFile(
    join(home, 'config.yaml'),
    `model:\n  provider: openai\n  default: main-m\nagent:\n  workspace: ${join(dir, 'work')}\napproval_mode: off\n` +
      `auxiliary:\n  web_extract:\n    provider: openai\n    model: web-m\n${extra}`,
    { mode: 0o600 },
  );
}
// No proxy: the fake upstream and the page server are both on loopback.
const env = () => ({ OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1`, HTTP_PROXY: '', HTTPS_PROXY: '', http_proxy: '', https_proxy: '' });
type Message = { role: string; content: string };
const messagesOf = (model: string) => fake.requests.filter((r) => (r.body as { model?: string }).model === model).map((r) => (r.body as { messages: Message[] }).messages);

describe('web_extract in iris chat', () => {
  const question = 'How do I reach the harbour master?';

  it('summarises a long page with the web_extract slot and gives the model the summary with its source', async () => {
    await configure('tools:\n  web:\n    allow_private: true\n');
    const { html, lateFact } = longPage();
    site.serve('/history', { kind: 'page', body: html });
    const url = `${site.url}/history`;
    fake.script('main-m', { kind: 'tool_calls', calls: [{ id: 'w1', name: 'web_extract', arguments: { urls: [url], question } }] }, { kind: 'text', deltas: ['Call extension 4417.'] }, { kind: 'text', deltas: ['Harbour'] });
    fake.script('web-m', { kind: 'text', deltas: ['The harbour master: extension 4417, ', 'during the equinox.'] });

    const result = await runIris(['chat', '-q', 'find the harbour master'], { home, env: env() });
    expect(result.stdout).toBe('Call extension 4417.\n');
    expect(result.code).toBe(0);

    // The slot's model got the page text and the question, once.
    const slotCalls = messagesOf('web-m');
    expect(slotCalls).toHaveLength(1);
    const prompt = slotCalls[0]?.map((m) => m.content).join('\n') ?? '';
    expect(prompt).toContain(lateFact);
    expect(prompt).toContain('Section 1 of the harbour history records how the quay was widened');
    expect(prompt).toContain(question);
    expect(prompt).not.toContain('Subscribe now');

    // The main model read the summary, with its source and a note that it is one.
    const toolMessage = messagesOf('main-m')[1]?.find((m) => m.role === 'tool');
    expect(toolMessage?.content).toMatch(
      new RegExp(`^Source: ${url.replace(/[.]/g, '\\.')}\\nTitle: A long history of Lune harbour\\nSummarised by the web_extract model towards the question from [\\d,]+ characters of page text\\.\\n\\nThe harbour master: extension 4417, during the equinox\\.$`),
    );
    expect(site.requests.map((r) => r.path)).toEqual(['/history']);

    // The slot's call is the session's: iris usage counts it under its task.
    const usage = await runIris(['usage', '--by', 'task', '--json'], { home, env: env() });
    expect(usage.code).toBe(0);
    const tasks = (JSON.parse(usage.stdout) as Array<{ key: string; calls: number }>).map((row) => [row.key, row.calls]);
    expect(tasks).toContainEqual(['web_extract', 1]);
  });

  it('refuses every spelling of a loopback address unless tools.web.allow_private is set, and the site sees no request', async () => {
    await configure('');
    site.serve('/admin', { kind: 'page', contentType: 'text/plain', body: 'internal only' });
    const urls = LOOPBACK_FORMS.map(([host]) => `http://${host}:${site.port}/admin`);
    fake.script(
      'main-m',
      { kind: 'tool_calls', calls: [{ id: 'w1', name: 'web_extract', arguments: { urls: urls.slice(0, 3) } }, { id: 'w2', name: 'web_extract', arguments: { urls: urls.slice(3) } }] },
      { kind: 'text', deltas: ['It is not reachable.'] },
      { kind: 'text', deltas: ['Admin'] },
    );

    const result = await runIris(['chat', '-q', 'read the admin page'], { home, env: env() });
    expect(result).toMatchObject({ code: 0, stdout: 'It is not reachable.\n' });
    const toolMessages = messagesOf('main-m')[1]?.filter((m) => m.role === 'tool').map((m) => m.content);
    const expected = LOOPBACK_FORMS.map(([, refusal], i) => `Source: ${urls[i]}\nError: ${refusal}`);
    expect(toolMessages).toEqual([expected.slice(0, 3).join('\n\n---\n\n'), expected.slice(3).join('\n\n---\n\n')]);
    expect(site.requests).toEqual([]);
    expect(messagesOf('web-m')).toEqual([]);
  });

  it('checks every redirect hop: allow_cidrs opens the first server, not the loopback address it redirects to', async () => {
    const second = await startPageServer('127.0.0.2');
    try {
      second.serve('/secret', { kind: 'page', contentType: 'text/plain', body: 'the second server' });
      site.serve('/start', { kind: 'redirect', location: `${second.url}/secret` });
      const url = `${site.url}/start`;
      const ask = () =>
        fake.script('main-m', { kind: 'tool_calls', calls: [{ id: 'w1', name: 'web_extract', arguments: { urls: [url] } }] }, { kind: 'text', deltas: ['Done.'] }, { kind: 'text', deltas: ['Page'] });
      const toolMessage = () => messagesOf('main-m')[1]?.find((m) => m.role === 'tool')?.content;

      await configure('tools:\n  web:\n    allow_cidrs: [127.0.0.1/32]\n');
      ask();
      expect(await runIris(['chat', '-q', 'read it'], { home, env: env() })).toMatchObject({ code: 0, stdout: 'Done.\n' });
      expect(toolMessage()).toBe(`Source: ${url}\nError: redirected to ${second.url}/secret: refused: 127.0.0.2 is loopback`);
      expect(site.requests.map((r) => r.path)).toEqual(['/start']);
      expect(second.requests).toEqual([]);

      fake.reset();
      await configure('tools:\n  web:\n    allow_cidrs: [127.0.0.1/32, 127.0.0.2/32]\n');
      ask();
      expect(await runIris(['chat', '-q', 'read it'], { home, env: env() })).toMatchObject({ code: 0, stdout: 'Done.\n' });
      expect(toolMessage()).toBe(`Source: ${url}\nRedirected to: ${second.url}/secret\n\nthe second server`);
      expect(second.requests.map((r) => r.path)).toEqual(['/secret']);
    } finally {
      await second.close();
    }
  });
});
