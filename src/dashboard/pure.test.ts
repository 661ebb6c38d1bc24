// The dashboard's pure rules: reading set requests, the token and Host guards, the page token and
// static paths.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test/helpers/iris.js';
import { hasSessionToken, hostAllowed } from './guard.js';
import { parseSetRequest } from './set-request.js';
import { contentSecurityPolicy, injectToken, readStatic } from './static-files.js';

describe('parseSetRequest', () => {
  it.each([
    [{ scope: 'main', provider: ' openai ', model: 'gpt-5' }, { scope: 'main', provider: 'openai', model: 'gpt-5' }],
    [{ scope: 'auxiliary', task: 'vision', provider: 'openai', model: '' }, { scope: 'auxiliary', target: { kind: 'one', task: 'vision' }, provider: 'openai', model: '' }],
    [{ scope: 'auxiliary', task: '', provider: 'auto', model: '' }, { scope: 'auxiliary', target: { kind: 'all' }, provider: 'auto', model: '' }],
    [{ scope: 'auxiliary', task: '__reset__' }, { scope: 'auxiliary', target: { kind: 'reset' }, provider: '', model: '' }],
  ])('accepts %j', (body, request) => {
    expect(parseSetRequest(body)).toEqual({ ok: true, request });
  });

  it.each([
    [[], 422],
    [null, 422],
    ['main', 422],
    [{ provider: 'openai', model: 'x' }, 422],
    [{ scope: 1 }, 422],
    [{ scope: 'main', provider: 'openai', model: 5 }, 422],
    [{ scope: 'main', provider: 'openai', model: 'x', task: false }, 422],
    [{ scope: 'global', provider: 'openai', model: 'x' }, 400],
    [{ scope: 'main', provider: '', model: 'x' }, 400],
    [{ scope: 'main', provider: 'openai', model: '  ' }, 400],
    [{ scope: 'auxiliary', provider: 'openai', model: 'x' }, 400],
    [{ scope: 'auxiliary', task: 'vision', model: 'x' }, 400],
    [{ scope: 'auxiliary', task: 'Vision', provider: 'openai', model: 'x' }, 400],
  ])('refuses %j with %i', (body, status) => {
    expect(parseSetRequest(body)).toMatchObject({ ok: false, status });
  });
});

describe('guards', () => {
  it('takes the token from X-Service-Session-Token or a Bearer header, exactly', () => {
    expect(hasSessionToken({ 'x-service-session-token': 'abc' }, 'abc')).toBe(true);
    expect(hasSessionToken({ authorization: 'Bearer abc' }, 'abc')).toBe(true);
    expect(hasSessionToken({ 'x-service-session-token': 'abcd' }, 'abc')).toBe(false);
    expect(hasSessionToken({ authorization: 'Basic abc' }, 'abc')).toBe(false);
    expect(hasSessionToken({}, 'abc')).toBe(false);
  });

  it('answers only its own Host on loopback, and the public hosts on a remote address', () => {
    expect(hostAllowed('127.0.0.1:9119', '127.0.0.1', 9119)).toBe(true);
    expect(hostAllowed('localhost:9119', '127.0.0.1', 9119)).toBe(true);
    expect(hostAllowed('LOCALHOST:9119', '127.0.0.1', 9119)).toBe(true);
    expect(hostAllowed('localhost:9120', '127.0.0.1', 9119)).toBe(false);
    expect(hostAllowed('evil.example:9119', '127.0.0.1', 9119)).toBe(false);
    expect(hostAllowed(undefined, '127.0.0.1', 9119)).toBe(false);
    expect(hostAllowed('[::1]:9119', '::1', 9119)).toBe(true);
    expect(hostAllowed('127.0.0.1:9119', '0.0.0.0', 9119, ['my-server.lan'])).toBe(true);
    expect(hostAllowed('my-server.lan:9119', '0.0.0.0', 9119, ['my-server.lan'])).toBe(true);
    expect(hostAllowed('MY-SERVER.lan', '0.0.0.0', 9119, ['my-server.lan'])).toBe(true);
    expect(hostAllowed('iris.example.com', '0.0.0.0', 9119, ['iris.example.com:443'])).toBe(false);
    expect(hostAllowed('iris.example.com:443', '0.0.0.0', 9119, ['iris.example.com:443'])).toBe(true);
    expect(hostAllowed('[fd00::5]:9119', '::', 9119, ['fd00::5'])).toBe(true);
    expect(hostAllowed('[fd00::5]:9119', '::', 9119, ['[fd00::5]:9119'])).toBe(true);
    expect(hostAllowed('evil.example:9119', '0.0.0.0', 9119, ['my-server.lan'])).toBe(false);
    expect(hostAllowed('my-server.lan.evil.example:9119', '0.0.0.0', 9119, ['my-server.lan'])).toBe(false);
    expect(hostAllowed('0.0.0.0:9119', '0.0.0.0', 9119, [])).toBe(true);
  });
});

describe('the page and static files', () => {
  let root: string;
  beforeAll(async () => {
    root = await makeTempDir('iris-ui-');
    await mkdir(join(root, 'assets'));
    await writeFile(join(root, 'assets', 'app.js'), 'console.log(1)');
    await writeFile(join(root, 'index.html'), '<html><head></head></html>');
  });
  afterAll(() => removeDir(root));

  it('injects the token as a JSON string in a nonce script before </head>', () => {
    expect(injectToken('<html><head><title>x</title></head><body></body></html>', 'a"b</script>', 'N1')).toBe(
      '<html><head><title>x</title><script nonce="N1">window.__DASHBOARD_AUTH_TOKEN__="a\\"b</script>";</script></head><body></body></html>',
    );
    expect(contentSecurityPolicy('N1')).toContain("script-src 'self' 'nonce-N1'");
  });

  it('serves files inside the folder only', async () => {
    expect(await readStatic(root, '/assets/app.js')).toMatchObject({ status: 200, type: 'text/javascript; charset=utf-8' });
    for (const path of ['/../package.json', '/assets/../../etc/passwd', '/%2e%2e/x', '/assets', '/nope.js', '/%E0%A4%A', '/a%00b']) {
      expect(await readStatic(root, path)).toEqual({ status: 404 });
    }
  });
});
