// iris skills end to end: bin/iris against a temp IRIS_HOME, the fake model upstream (the
// skills_hub slot's answers) and a loopback page server (a hub served over HTTP, raw SKILL.md
// files). Search reads every hub, a broken one is named; install writes exact bytes; the agent's
// list_skills sees what was installed without a restart. URLs go through the fetch guard, so the
// configs open private addresses (tools.web.allow_private) to reach the loopback server.
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPageServer, type PageServer } from '../fakes/page-server.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

let fake: FakeUpstream;
let site: PageServer;
let dir: string;
let home: string;
let hubA: string;
let hubB: string;
let broken: string;
let httpHub: string;

// Byte-exact: CRLF line ends, a trailing space, no final newline.
const PDF_TOOLS = '---\r\nname: pdf-tools\r\ndescription: Split and merge PDF files\r\n---\r\nUse qpdf --split-pages. \r\nDone.';
const PDF_OCR = '---\nname: pdf-ocr\ndescription: Read scanned PDF files with OCR\n---\nRun ocrmypdf first.\n';
const WRONG_NAME = '---\nname: something-else\ndescription: Git helpers\n---\nbody\n';

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
  await mkdir(join(dir, 'hub-a', 'pdf-tools'), { recursive: true });
  await mkdir(join(dir, 'hub-b'));
  hubA = join(dir, 'hub-a', 'index.json');
  hubB = join(dir, 'hub-b', 'index.json');
  broken = join(dir, 'broken.json');
  httpHub = `${site.url}/hub/index.json`;
  await writeFile(hubA, JSON.stringify({ skills: [
    { name: 'pdf-tools', description: 'Split and merge PDF files', url: 'pdf-tools/SKILL.md', tags: ['documents'] },
    { name: 'git-helper', description: 'Everyday git chores', url: 'git-helper.md' },
  ] }));
  await writeFile(join(dir, 'hub-a', 'pdf-tools', 'SKILL.md'), PDF_TOOLS);
  await writeFile(join(dir, 'hub-a', 'git-helper.md'), WRONG_NAME);
  await writeFile(hubB, JSON.stringify({ skills: [
    { name: 'weather', description: 'Forecasts for a city', url: 'https://example.invalid/weather.md' },
    { name: 'report-writer', description: 'Write reports and export them', url: 'https://example.invalid/r.md', tags: ['pdf'] },
  ] }));
  await writeFile(broken, '{"skills": [ not json');
  site.serve('/hub/index.json', { kind: 'page', contentType: 'application/json', body: JSON.stringify({ skills: [{ name: 'pdf-ocr', description: 'Read scanned PDF files with OCR', url: 'ocr/SKILL.md' }] }) });
  site.serve('/hub/ocr/SKILL.md', { kind: 'page', contentType: 'text/markdown', body: PDF_OCR });
});
afterEach(async () => {
  await site.close();
  await removeDir(dir);
});

const OPEN_PRIVATE = 'tools:\n  web:\n    allow_private: true\n';

async function configure(extra = '', tools = OPEN_PRIVATE) {
  const hubs = [hubA, hubB, httpHub, broken].map((hub) => `    - ${hub}\n`).join('');
  await writeFile(join(home, 'config.yaml'), `model:\n  provider: openai\n  default: main-m\napproval_mode: off\n${tools}skills:\n  hubs:\n${hubs}${extra}`, { mode: 0o600 });
}
const env = () => ({ OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1`, HTTP_PROXY: '', HTTPS_PROXY: '', http_proxy: '', https_proxy: '' });
const iris = (args: string[]) => runIris(args, { home, env: env() });
type Message = { role: string; content: string };
const requests = () => fake.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.body as { model: string; messages: Message[] });

const RANKING = JSON.stringify({ results: [{ name: 'pdf-ocr', reason: 'It reads scanned PDFs.' }, { name: 'pdf-tools', reason: 'It splits PDFs.' }] });
const PROMPT = [
  'Search:',
  'pdf',
  '',
  'Skills:',
  '- pdf-tools: Split and merge PDF files [tags: documents]',
  '- pdf-ocr: Read scanned PDF files with OCR',
  '- report-writer: Write reports and export them [tags: pdf]',
].join('\n');
const RANKED_OUTPUT = [
  'pdf-ocr: Read scanned PDF files with OCR',
  `  source: ${'$HTTP'}`,
  '  why: It reads scanned PDFs.',
  '',
  'pdf-tools: Split and merge PDF files',
  `  source: ${'$A'}`,
  '  why: It splits PDFs.',
  '',
].join('\n');
const ranked = () => RANKED_OUTPUT.replace('$HTTP', httpHub).replace('$A', hubA);
const prefilterOrder = () =>
  [`pdf-tools: Split and merge PDF files\n  source: ${hubA}`, `pdf-ocr: Read scanned PDF files with OCR\n  source: ${httpHub}`, `report-writer: Write reports and export them\n  source: ${hubB}`].join('\n\n') + '\n';
const brokenWarning = () => `iris: warning: skills hub ${broken} failed: the index is not JSON\n`;

describe('iris skills search', () => {
  it('reads every hub (two paths, one over HTTP), names the broken one, and the auto slot ranks with the main model', async () => {
    await configure();
    fake.script('main-m', { kind: 'text', deltas: [RANKING] });
    const result = await iris(['skills', 'search', 'pdf']);
    expect(result).toEqual({ code: 0, stdout: ranked(), stderr: brokenWarning() });
    expect(requests().map((r) => r.model)).toEqual(['main-m']);
    expect(requests()[0]?.messages.filter((m) => m.role === 'user')).toEqual([{ role: 'user', content: PROMPT }]);
    expect(site.requests.map((r) => r.path)).toEqual(['/hub/index.json']);

    const json = await iris(['skills', 'search', 'pdf', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      query: 'pdf',
      ranked: true,
      results: [
        { name: 'pdf-ocr', description: 'Read scanned PDF files with OCR', source: httpHub, url: `${site.url}/hub/ocr/SKILL.md`, tags: [], reason: 'It reads scanned PDFs.' },
        { name: 'pdf-tools', description: 'Split and merge PDF files', source: hubA, url: join(dir, 'hub-a', 'pdf-tools', 'SKILL.md'), tags: ['documents'], reason: 'It splits PDFs.' },
      ],
      failed_hubs: [{ hub: broken, error: 'the index is not JSON' }],
    });
  });

  it('names an unreachable hub and answers from the others; exit 1 only when no hub answers', async () => {
    const gone = `${site.url}/gone/index.json`;
    await writeFile(join(home, 'config.yaml'), `model:\n  provider: openai\n  default: main-m\n${OPEN_PRIVATE}skills:\n  hubs: [${hubA}, ${gone}]\n`, { mode: 0o600 });
    fake.script('main-m', { kind: 'text', deltas: ['{"results":[{"name":"pdf-tools","reason":"It splits PDFs."}]}'] });
    const result = await iris(['skills', 'search', 'pdf']);
    expect(result).toEqual({ code: 0, stdout: `pdf-tools: Split and merge PDF files\n  source: ${hubA}\n  why: It splits PDFs.\n`, stderr: `iris: warning: skills hub ${gone} failed: ${gone} answered 404\n` });

    await writeFile(join(home, 'config.yaml'), `model:\n  provider: openai\n  default: main-m\n${OPEN_PRIVATE}skills:\n  hubs: [${gone}]\n`, { mode: 0o600 });
    const none = await iris(['skills', 'search', 'pdf']);
    expect(none).toEqual({ code: 1, stdout: '', stderr: `iris: warning: skills hub ${gone} failed: ${gone} answered 404\niris: error: no skills hub answered\n` });
    expect(requests().map((r) => r.model)).toEqual(['main-m']);
  });

  it('asks the pinned skills_hub model, not the main one', async () => {
    await configure();
    const pin = await iris(['model', 'aux', 'set', 'skills_hub', 'openai', 'rank-m']);
    expect(pin.code).toBe(0);
    fake.script('rank-m', { kind: 'text', deltas: [RANKING] });
    const result = await iris(['skills', 'search', 'pdf']);
    expect(result).toEqual({ code: 0, stdout: ranked(), stderr: brokenWarning() });
    expect(requests().map((r) => r.model)).toEqual(['rank-m']);

    // The call is counted under its task, with no session.
    const usage = await iris(['usage', '--by', 'task', '--json']);
    expect(usage.code).toBe(0);
    expect((JSON.parse(usage.stdout) as Array<{ key: string; calls: number }>).map((row) => [row.key, row.calls])).toEqual([['skills_hub', 1]]);
  });

  it('prints the prefilter order with a warning when the answer is malformed twice', async () => {
    await configure('auxiliary:\n  skills_hub:\n    provider: openai\n    model: rank-m\n');
    fake.script('rank-m', { kind: 'text', deltas: ['The best one is pdf-ocr.'] }, { kind: 'text', deltas: ['{"results":[{"name":"pdf-magic","reason":"x"}]}'] });
    const result = await iris(['skills', 'search', 'pdf']);
    expect(result).toEqual({
      code: 0,
      stdout: prefilterOrder(),
      stderr: `${brokenWarning()}iris: warning: the skills_hub slot's answer was malformed twice ("pdf-magic" is not in the list); showing the prefilter order\n`,
    });
    const asked = requests();
    expect(asked.map((r) => r.model)).toEqual(['rank-m', 'rank-m']);
    expect(asked[1]?.messages.slice(-2)).toEqual([
      { role: 'assistant', content: 'The best one is pdf-ocr.' },
      { role: 'user', content: 'That answer could not be used: it is not JSON. Answer again with only {"results":[{"name","reason"}]}, using names from the list exactly as written.' },
    ]);
  });

  it("falls back along the chain when the slot's model is down, and to the prefilter order when every candidate is", async () => {
    await configure('auxiliary:\n  skills_hub:\n    provider: openai\n    model: rank-m\nfallback_providers:\n  - { provider: openai, model: backup-m }\n');
    fake.script('rank-m', { kind: 'server_error' });
    fake.script('backup-m', { kind: 'text', deltas: [RANKING] });
    const result = await iris(['skills', 'search', 'pdf']);
    expect(result).toEqual({ code: 0, stdout: ranked(), stderr: brokenWarning() });
    expect(requests().map((r) => r.model)).toEqual(['rank-m', 'backup-m']);

    fake.reset();
    fake.script('rank-m', { kind: 'error', status: 503 });
    fake.script('backup-m', { kind: 'server_error' });
    // A pinned slot's chain: its model, fallback_providers, then the provider's default (discovery).
    fake.script('gpt-5.1', { kind: 'overloaded' });
    const down = await iris(['skills', 'search', 'pdf']);
    expect(down.code).toBe(0);
    expect(down.stdout).toBe(prefilterOrder());
    expect(down.stderr).toMatch(new RegExp(`^${brokenWarning().replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}iris: warning: the skills_hub slot failed: .*; showing the prefilter order\\n$`));
    expect(requests().map((r) => r.model)).toEqual(['rank-m', 'backup-m', 'gpt-5.1']);
  });
});

describe('iris skills install, list, show, remove', () => {
  it('installs by hub name byte for byte with mode 0600, and replaces only with --force', async () => {
    await configure();
    const path = join(home, 'skills', 'pdf-tools', 'SKILL.md');
    const first = await iris(['skills', 'install', 'pdf-tools']);
    expect(first).toEqual({ code: 0, stdout: `installed skill pdf-tools (${path}) from ${join(dir, 'hub-a', 'pdf-tools', 'SKILL.md')}\n`, stderr: brokenWarning() });
    expect(await readFile(path, 'utf8')).toBe(PDF_TOOLS);
    expect((await stat(path)).mode & 0o777).toBe(0o600);

    await writeFile(path, 'local edits');
    const again = await iris(['skills', 'install', 'pdf-tools']);
    expect(again).toEqual({ code: 1, stdout: '', stderr: `${brokenWarning()}iris: error: skill "pdf-tools" is already installed (${path}); --force replaces it\n` });
    expect(await readFile(path, 'utf8')).toBe('local edits');

    const forced = await iris(['skills', 'install', 'pdf-tools', '--force', '--json']);
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.stdout)).toEqual({ installed: 'pdf-tools', description: 'Split and merge PDF files', path, from: join(dir, 'hub-a', 'pdf-tools', 'SKILL.md'), source: hubA, replaced: true });
    expect(await readFile(path, 'utf8')).toBe(PDF_TOOLS);
  });

  it('installs from a URL; refuses a SKILL.md whose name differs from the hub entry, and a name no hub has', async () => {
    await configure();
    const url = `${site.url}/hub/ocr/SKILL.md`;
    const result = await iris(['skills', 'install', url]);
    const path = join(home, 'skills', 'pdf-ocr', 'SKILL.md');
    expect(result).toEqual({ code: 0, stdout: `installed skill pdf-ocr (${path}) from ${url}\n`, stderr: '' });
    expect(await readFile(path, 'utf8')).toBe(PDF_OCR);
    expect((await stat(path)).mode & 0o777).toBe(0o600);

    const wrong = await iris(['skills', 'install', 'git-helper']);
    expect(wrong).toEqual({ code: 1, stdout: '', stderr: `${brokenWarning()}iris: error: ${join(dir, 'hub-a', 'git-helper.md')}: SKILL.md names the skill "something-else", not "git-helper"\n` });
    const unknown = await iris(['skills', 'install', 'nope']);
    expect(unknown).toEqual({ code: 1, stdout: '', stderr: `${brokenWarning()}iris: error: no skill named "nope" in the skills hubs (iris skills search finds them)\n` });
    const missing = await iris(['skills', 'install', `${site.url}/hub/none/SKILL.md`]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`iris: error: ${site.url}/hub/none/SKILL.md answered 404\n`);
  });

  it('fetches URLs through the fetch guard: a loopback one is refused (exit 1, the guard\'s sentence) and the server hears nothing', async () => {
    await configure('', '');
    const url = `${site.url}/hub/ocr/SKILL.md`;
    const refused = await iris(['skills', 'install', url]);
    expect(refused).toEqual({ code: 1, stdout: '', stderr: 'iris: error: refused: 127.0.0.1 is loopback\n' });
    const odd = await iris(['skills', 'install', `http://0x7f000001:${site.port}/hub/ocr/SKILL.md`]);
    expect(odd).toEqual({ code: 1, stdout: '', stderr: 'iris: error: refused: 127.0.0.1 is loopback\n' });
    // A hub on a refused address is named like any failing hub; the others still answer.
    const search = await iris(['skills', 'search', 'pdf', '--json']);
    expect(search.code).toBe(0);
    expect((JSON.parse(search.stdout) as { failed_hubs: unknown[] }).failed_hubs).toEqual([
      { hub: httpHub, error: 'refused: 127.0.0.1 is loopback' },
      { hub: broken, error: 'the index is not JSON' },
    ]);
    expect(site.requests).toEqual([]);

    // allow_cidrs opening exactly that address lets the same install through.
    await configure('', 'tools:\n  web:\n    allow_cidrs: [127.0.0.1/32]\n');
    expect(await iris(['skills', 'install', url])).toMatchObject({ code: 0 });
    expect(site.requests.map((r) => r.path)).toEqual(['/hub/ocr/SKILL.md']);
  });

  it('lists, shows and removes installed skills; the agent sees a new skill at once', async () => {
    await configure();
    expect(await iris(['skills', 'list'])).toEqual({ code: 0, stdout: `no skills installed (iris skills install <name>|<url> adds one under ${join(home, 'skills')})\n`, stderr: '' });
    expect((await iris(['skills', 'install', join(dir, 'hub-a', 'pdf-tools', 'SKILL.md')])).code).toBe(0);

    expect(await iris(['skills', 'list'])).toEqual({ code: 0, stdout: 'skill      description\npdf-tools  Split and merge PDF files\n', stderr: '' });
    const list = await iris(['skills', 'list', '--json']);
    expect(JSON.parse(list.stdout)).toEqual({ skills: [{ name: 'pdf-tools', description: 'Split and merge PDF files', path: join(home, 'skills', 'pdf-tools', 'SKILL.md') }], invalid: [] });
    const show = await iris(['skills', 'show', 'pdf-tools']);
    expect(show).toEqual({ code: 0, stdout: `pdf-tools: Split and merge PDF files\nfile: ${join(home, 'skills', 'pdf-tools', 'SKILL.md')}\n\nUse qpdf --split-pages. \nDone.\n`, stderr: '' });

    fake.script('main-m', { kind: 'tool_calls', calls: [{ id: 'l1', name: 'list_skills', arguments: {} }] }, { kind: 'text', deltas: ['You have pdf-tools.'] }, { kind: 'text', deltas: ['Skills'] });
    const chat = await iris(['chat', '-q', 'which skills do I have?']);
    expect(chat.stdout).toBe('You have pdf-tools.\n');
    const toolMessage = requests()[1]?.messages.find((m) => m.role === 'tool');
    expect(toolMessage?.content).toBe('skills (load one with load_skill):\n- pdf-tools: Split and merge PDF files');

    const removed = await iris(['skills', 'remove', 'pdf-tools']);
    expect(removed).toEqual({ code: 0, stdout: `removed skill pdf-tools (${join(home, 'skills', 'pdf-tools')})\n`, stderr: '' });
    expect(await iris(['skills', 'remove', 'pdf-tools'])).toEqual({ code: 1, stdout: '', stderr: 'iris: error: no skill named "pdf-tools" (iris skills list shows the installed ones)\n' });
    expect(await iris(['skills', 'show', 'pdf-tools'])).toEqual({ code: 1, stdout: '', stderr: 'iris: error: no skill named "pdf-tools" (iris skills list shows the installed ones)\n' });
  });
});
