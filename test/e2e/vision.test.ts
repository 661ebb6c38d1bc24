// vision_analyze and `iris chat --image` as a subprocess: the image request must land at the vision
// slot's provider and model, in the exact shape of that slot's wire format; downloads are bounded
// (a local server trickles, or sends 21 MB), checked by their bytes, and guarded: the image server
// is on loopback, so tests that download from it open private addresses (tools.web.allow_private),
// and the guard's tests check that without it nothing reaches the server.
import { createServer, type Server, type ServerResponse } from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream, type RecordedRequest } from '../fakes/upstream.js';
import { makeTempDir, removeDir, runIris, runIrisWithInput } from '../helpers/iris.js';
import { LOOPBACK_FORMS } from '../helpers/loopback-forms.js';

// A real 1×1 PNG.
const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const PNG = Buffer.from(PNG_B64, 'base64');
const DATA_URL = `data:image/png;base64,${PNG_B64}`;

let fake: FakeUpstream;
let images: Server;
let imagesUrl: string;
/** Requests the image server saw, as "METHOD url" (a proxied one arrives with its absolute URL). */
const imageRequests: string[] = [];
let dir: string;
let home: string;
let workspace: string;

function trickle(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'image/png' });
  res.write(PNG.subarray(0, 8));
  const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(Buffer.from([0]))), 100);
  res.on('close', () => clearInterval(timer));
}

function send21MB(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'image/png' }); // chunked: the length is not announced
  // A PNG from its first byte, so only the cap can refuse it.
  const first = Buffer.alloc(1024 * 1024, 0);
  PNG.copy(first);
  const rest = Buffer.alloc(1024 * 1024, 0);
  let sent = 0;
  const pump = () => {
    while (sent < 21 && !res.destroyed) {
      sent++;
      if (!res.write(sent === 1 ? first : rest)) return void res.once('drain', pump);
    }
    res.end();
  };
  pump();
}

beforeAll(async () => {
  fake = await startFakeUpstream();
  images = createServer((req, res) => {
    imageRequests.push(`${req.method} ${req.url}`);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/cat.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    if (path === '/page.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end('<!doctype html><p>not an image</p>');
    if (path === '/trickle.png') return trickle(res);
    if (path === '/21mb.png') return send21MB(res);
    if (path === '/redirect') return void res.writeHead(302, { location: new URL(req.url ?? '/', 'http://x').searchParams.get('to') ?? '/' }).end();
    res.writeHead(404).end();
  });
  // It is a proxy too: undici tunnels every proxied request with CONNECT, here into itself.
  images.on('connect', (req, socket, head) => {
    imageRequests.push(`CONNECT ${req.url}`);
    const tunnel = connect((images.address() as AddressInfo).port, '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      tunnel.write(head);
      tunnel.pipe(socket).pipe(tunnel);
    });
    tunnel.on('error', () => socket.destroy());
    socket.on('error', () => tunnel.destroy());
  });
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  imagesUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
});
afterAll(async () => {
  images.closeAllConnections();
  await new Promise((resolve) => images.close(resolve));
  await fake.close();
});
beforeEach(async () => {
  fake.reset();
  imageRequests.length = 0;
  dir = await makeTempDir();
  home = join(dir, 'home');
  workspace = join(dir, 'work');
  await mkdir(home, { mode: 0o700 });
  await mkdir(workspace);
  await writeFile(join(workspace, 'cat.png'), PNG);
});
afterEach(() => removeDir(dir));

/** Lets downloads reach the loopback image server. */
const OPEN_PRIVATE = 'tools:\n  web:\n    allow_private: true\n';

/** `vision`: the YAML of auxiliary.vision, indented by four; `extra`: more top-level YAML. */
async function configure(vision?: string, extra = '') {
  await writeFile(
    join(home, 'config.yaml'),
    `model:\n  provider: openai\n  default: main-m\nagent:\n  workspace: ${workspace}\napproval_mode: off\n${extra}` +
      (vision === undefined ? '' : `auxiliary:\n  vision:\n${vision}`),
    { mode: 0o600 },
  );
}
const env = () => ({
  OPENAI_API_KEY: 'test-key-0123456789',
  OPENAI_BASE_URL: `${fake.url}/v1`,
  ANTHROPIC_API_KEY: 'test-anthropic-key',
  ANTHROPIC_BASE_URL: fake.url,
});
const byModel = (model: string): RecordedRequest[] => fake.requests.filter((r) => (r.body as { model?: string }).model === model);
/** The main model calls vision_analyze once, then answers from the tool result. */
function scriptToolCall(image: string) {
  fake.script(
    'main-m',
    { kind: 'tool_calls', calls: [{ id: 'v1', name: 'vision_analyze', arguments: { image, question: 'What animal is this?' } }] },
    { kind: 'text', deltas: ['It is a cat.'] },
    { kind: 'text', deltas: ['Cat picture'] },
  );
}
/** What the main model read back as the tool's result (chat completions). */
function toolResult(): unknown {
  const messages = (byModel('main-m')[1]?.body as { messages: Array<{ role: string }> }).messages;
  return messages.find((m) => m.role === 'tool');
}

const question = { type: 'text', text: 'What animal is this?' };
const OPENAI_VISION = '    provider: openai\n    model: vis-m\n';

describe('vision_analyze reaches the vision slot in its wire format', () => {
  it.each([
    [
      'chat completions',
      OPENAI_VISION,
      '/v1/chat/completions',
      { authorization: 'Bearer test-key-0123456789' },
      {
        model: 'vis-m',
        messages: [{ role: 'user', content: [question, { type: 'image_url', image_url: { url: DATA_URL } }] }],
        stream: true,
        stream_options: { include_usage: true },
        max_tokens: 1500,
      },
    ],
    [
      'responses',
      `${OPENAI_VISION}    api_mode: codex_responses\n`,
      '/v1/responses',
      { authorization: 'Bearer test-key-0123456789' },
      {
        model: 'vis-m',
        input: [{ role: 'user', content: [{ type: 'input_text', text: 'What animal is this?' }, { type: 'input_image', image_url: DATA_URL }] }],
        stream: true,
        store: false,
        max_output_tokens: 1500,
      },
    ],
    [
      'anthropic messages',
      '    provider: anthropic\n    model: vis-m\n',
      '/v1/messages',
      { 'x-api-key': 'test-anthropic-key' },
      {
        model: 'vis-m',
        messages: [{ role: 'user', content: [question, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_B64 } }] }],
        max_tokens: 1500,
        stream: true,
      },
    ],
  ])('%s', async (_format, vision, path, headers, body) => {
    await configure(vision);
    fake.script('vis-m', { kind: 'text', deltas: ['A small ', 'cat.'] });
    scriptToolCall('cat.png');
    const result = await runIris(['chat', '-q', 'what is in cat.png?'], { home, env: env() });
    expect(result).toMatchObject({ code: 0, stdout: 'It is a cat.\n' });
    const [request, ...more] = byModel('vis-m');
    expect(more).toEqual([]);
    expect(request?.path).toBe(path);
    expect(request?.headers).toMatchObject(headers);
    expect(request?.body).toEqual(body);
    expect(toolResult()).toEqual({ role: 'tool', tool_call_id: 'v1', content: 'A small cat.' });
    // The main model never saw the image itself.
    expect(JSON.stringify(byModel('main-m').map((r) => r.body))).not.toContain(PNG_B64);
  });

  it('is set with iris model aux set vision and reads http(s) and data: URLs', async () => {
    await configure(undefined, OPEN_PRIVATE);
    expect(await runIris(['model', 'aux', 'set', 'vision', 'anthropic', 'vis-m'], { home, env: env() })).toMatchObject({ code: 0 });
    for (const image of [`${imagesUrl}/cat.png`, DATA_URL]) {
      fake.reset();
      fake.script('vis-m', { kind: 'text', deltas: ['A cat.'] });
      scriptToolCall(image);
      expect(await runIris(['chat', '-q', 'look'], { home, env: env() })).toMatchObject({ code: 0, stdout: 'It is a cat.\n' });
      expect(byModel('vis-m').map((r) => [r.path, (r.body as { messages: unknown }).messages])).toEqual([
        ['/v1/messages', [{ role: 'user', content: [question, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_B64 } }] }]],
      ]);
    }
    expect(imageRequests).toEqual(['GET /cat.png']);
    // Both vision calls are the sessions': iris usage counts them under the vision task.
    const usage = await runIris(['usage', '--by', 'task', '--json'], { home, env: env() });
    expect((JSON.parse(usage.stdout) as Array<{ key: string; calls: number }>).filter((row) => row.key === 'vision').map((row) => row.calls)).toEqual([2]);
  });

  it('fetches through HTTP_PROXY like model calls do', async () => {
    await configure(OPENAI_VISION);
    scriptToolCall('http://images.example.test/cat.png');
    const result = await runIris(['chat', '-q', 'look'], { home, env: { ...env(), HTTP_PROXY: imagesUrl, NO_PROXY: '127.0.0.1' } });
    expect(result).toMatchObject({ code: 0, stdout: 'It is a cat.\n' });
    // The image went through the proxy (a name only the proxy knows); the fake upstream, in NO_PROXY, did not.
    expect(imageRequests).toEqual(['CONNECT images.example.test:80', 'GET /cat.png']);
    expect(byModel('vis-m')).toHaveLength(1);
  });
});

describe('vision_analyze refuses, as a tool error the model reads', () => {
  it.each([
    ['a download that outlasts download_timeout (the server keeps trickling)', '/trickle.png', (url: string) => `the download of ${url} did not finish within 1 s`],
    ['a body over 20 MB (sent chunked, so reading has to stop at the cap)', '/21mb.png', (url: string) => `${url} is larger than 20 MB; reading stopped there`],
    ['a page served as image/png', '/page.png', (url: string) => `"${url}" is not a PNG, JPEG, GIF or WebP image (checked by its first bytes)`],
  ])('%s', async (_name, path, error) => {
    await configure(`${OPENAI_VISION}    download_timeout: 1\n`, OPEN_PRIVATE);
    const url = `${imagesUrl}${path}`;
    scriptToolCall(url);
    const started = Date.now();
    const result = await runIris(['chat', '-q', 'look'], { home, env: env() });
    expect(result).toMatchObject({ code: 0, stdout: 'It is a cat.\n' });
    expect(Date.now() - started).toBeLessThan(8000);
    expect(toolResult()).toEqual({ role: 'tool', tool_call_id: 'v1', content: error(url) });
    expect(result.stderr).toContain(`  ✗ vision_analyze: ${error(url)}\n`);
    expect(byModel('vis-m')).toEqual([]);
  });

  it('a non-image workspace file, without calling the vision slot', async () => {
    await configure(OPENAI_VISION);
    await writeFile(join(workspace, 'notes.png'), 'just text');
    scriptToolCall('notes.png');
    expect(await runIris(['chat', '-q', 'look'], { home, env: env() })).toMatchObject({ code: 0 });
    expect(toolResult()).toEqual({ role: 'tool', tool_call_id: 'v1', content: '"notes.png" is not a PNG, JPEG, GIF or WebP image (checked by its first bytes)' });
    expect(byModel('vis-m')).toEqual([]);
  });
});

describe('vision_analyze behind the fetch guard', () => {
  /** The main model asks for every image at once, then answers. */
  function scriptToolCalls(images: readonly string[]) {
    fake.script(
      'main-m',
      { kind: 'tool_calls', calls: images.map((image, i) => ({ id: `v${i}`, name: 'vision_analyze', arguments: { image, question: 'What animal is this?' } })) },
      { kind: 'text', deltas: ['No picture.'] },
      { kind: 'text', deltas: ['Pictures'] },
    );
  }
  const toolResults = () =>
    ((byModel('main-m')[1]?.body as { messages: Array<{ role: string; content: string }> }).messages.filter((m) => m.role === 'tool')).map((m) => m.content);

  it('refuses every spelling of a loopback address, and the image server sees no request', async () => {
    await configure(OPENAI_VISION);
    const port = new URL(imagesUrl).port;
    scriptToolCalls(LOOPBACK_FORMS.map(([host]) => `http://${host}:${port}/cat.png`));
    const result = await runIris(['chat', '-q', 'look'], { home, env: env() });
    expect(result).toMatchObject({ code: 0, stdout: 'No picture.\n' });
    expect(toolResults()).toEqual(LOOPBACK_FORMS.map(([, refusal]) => refusal));
    expect(imageRequests).toEqual([]);
    expect(byModel('vis-m')).toEqual([]);
  });

  it('checks the redirect: from an address allow_cidrs opens to one it does not is refused, and the second server hears nothing', async () => {
    const secondRequests: string[] = [];
    const second = createServer((req, res) => {
      secondRequests.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    });
    await new Promise<void>((resolve) => second.listen(0, '127.0.0.2', resolve));
    try {
      const target = `http://127.0.0.2:${(second.address() as AddressInfo).port}/cat.png`;
      const redirect = `${imagesUrl}/redirect?to=${encodeURIComponent(target)}`;
      await configure(OPENAI_VISION, 'tools:\n  web:\n    allow_cidrs: [127.0.0.1/32]\n');
      scriptToolCalls([redirect]);
      expect(await runIris(['chat', '-q', 'look'], { home, env: env() })).toMatchObject({ code: 0, stdout: 'No picture.\n' });
      expect(toolResults()).toEqual([`redirected to ${target}: refused: 127.0.0.2 is loopback`]);
      expect(imageRequests).toEqual([`GET /redirect?to=${encodeURIComponent(target)}`]);
      expect(secondRequests).toEqual([]);

      // Opened too, the same redirect is followed.
      fake.reset();
      await configure(OPENAI_VISION, 'tools:\n  web:\n    allow_cidrs: [127.0.0.1/32, 127.0.0.2/32]\n');
      fake.script('vis-m', { kind: 'text', deltas: ['A cat.'] });
      scriptToolCalls([redirect]);
      expect(await runIris(['chat', '-q', 'look'], { home, env: env() })).toMatchObject({ code: 0, stdout: 'No picture.\n' });
      expect(toolResults()).toEqual(['A cat.']);
      expect(secondRequests).toEqual(['GET /cat.png']);
    } finally {
      second.closeAllConnections();
      await new Promise((resolve) => second.close(resolve));
    }
  });
});

describe('iris chat --image', () => {
  it('sends the image straight to a main model that takes images', async () => {
    await configure(OPENAI_VISION, OPEN_PRIVATE);
    fake.script('gpt-4.1', { kind: 'text', deltas: ['A cat.'] });
    const result = await runIris(['chat', '-q', 'what is this?', '--model', 'gpt-4.1', '--image', join(workspace, 'cat.png'), '--image', `${imagesUrl}/cat.png`], {
      home,
      env: env(),
    });
    expect(result).toMatchObject({ code: 0, stdout: 'A cat.\n' });
    const user = (byModel('gpt-4.1')[0]?.body as { messages: Array<{ role: string }> }).messages.find((m) => m.role === 'user');
    expect(user).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'what is this?' },
        { type: 'image_url', image_url: { url: DATA_URL } },
        { type: 'image_url', image_url: { url: DATA_URL } },
      ],
    });
    expect(byModel('vis-m')).toEqual([]);
    expect(result.stderr).not.toContain('does not take images');
  });

  it('goes through the vision slot for a main model that does not, and says so', async () => {
    await configure('    provider: anthropic\n    model: vis-m\n');
    fake.script('vis-m', { kind: 'text', deltas: ['A tabby cat on a sofa.'] });
    fake.script('main-m', { kind: 'text', deltas: ['That is a tabby.'] }, { kind: 'text', deltas: ['Cat'] });
    const result = await runIris(['chat', '-q', 'what breed?', '--image', join(workspace, 'cat.png')], { home, env: env() });
    expect(result).toMatchObject({ code: 0, stdout: 'That is a tabby.\n' });
    expect(result.stderr).toContain(
      `  · image ${join(workspace, 'cat.png')}: openai · main-m does not take images; the vision slot's description was added to the message\n`,
    );
    const [vision] = byModel('vis-m');
    expect(vision?.body).toEqual({
      model: 'vis-m',
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'text',
              text:
                'The user sent this image with the message below to an assistant that cannot see images. ' +
                'Describe the image for that assistant: everything in it that bears on the message, and any text in it verbatim.\n\nMessage: what breed?',
            },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_B64 } },
          ],
        },
      ],
      max_tokens: 1500,
      stream: true,
    });
    const user = (byModel('main-m')[0]?.body as { messages: Array<{ role: string }> }).messages.find((m) => m.role === 'user');
    expect(user).toEqual({
      role: 'user',
      content: `what breed?\n\n[image 1 (${join(workspace, 'cat.png')}), described by the vision model]\nA tabby cat on a sofa.`,
    });
  });

  it('in the REPL, joins the first line typed, and only that one', async () => {
    await configure(OPENAI_VISION);
    const result = await runIrisWithInput(['chat', '--model', 'gpt-4.1', '--image', DATA_URL], 'what is this?\nand now?\n', { home, env: env() });
    expect(result.code).toBe(0);
    const users = byModel('gpt-4.1').map((r) => (r.body as { messages: Array<{ role: string }> }).messages.filter((m) => m.role === 'user'));
    expect(users[0]).toEqual([{ role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'image_url', image_url: { url: DATA_URL } }] }]);
    expect(users.at(-1)?.at(-1)).toEqual({ role: 'user', content: 'and now?' });
  });

  it('fetches an image URL through the fetch guard: a loopback one is refused before any model is called', async () => {
    await configure(OPENAI_VISION);
    const result = await runIris(['chat', '-q', 'hi', '--image', `${imagesUrl}/cat.png`], { home, env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--image ${imagesUrl}/cat.png: refused: 127.0.0.1 is loopback`);
    expect(imageRequests).toEqual([]);
    expect(fake.requests).toEqual([]);
  });

  it('refuses an image it cannot use before any model is called', async () => {
    await configure(OPENAI_VISION);
    await writeFile(join(workspace, 'notes.png'), 'just text');
    const result = await runIris(['chat', '-q', 'hi', '--image', join(workspace, 'notes.png')], { home, env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--image ${join(workspace, 'notes.png')}: "${join(workspace, 'notes.png')}" is not a PNG, JPEG, GIF or WebP image (checked by its first bytes)`);
    expect(fake.requests).toEqual([]);
  });
});
