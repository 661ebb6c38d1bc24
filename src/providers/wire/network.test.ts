import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../../../test/fakes/upstream.js';
import { createApiModeMemory, streamFromProvider } from '../provider-client.js';
import { collectStream } from './model-client.js';
import { resolveProxySettings } from './network.js';

describe('resolveProxySettings', () => {
  it('reads upper- and lower-case names, and lets HTTPS fall back to HTTP_PROXY', () => {
    expect(resolveProxySettings({ HTTP_PROXY: 'http://p:1', no_proxy: 'localhost' })).toEqual({
      httpProxy: 'http://p:1',
      httpsProxy: 'http://p:1',
      noProxy: 'localhost',
    });
    expect(resolveProxySettings({ https_proxy: 'http://s:2' })).toEqual({ httpsProxy: 'http://s:2' });
    expect(resolveProxySettings({ HTTPS_PROXY: '  ' })).toEqual({});
  });
});

describe('requests through an HTTP proxy', () => {
  let fake: FakeUpstream;
  let proxy: Server;
  let proxyUrl: string;
  const tunnels: string[] = [];

  beforeAll(async () => {
    fake = await startFakeUpstream();
    // A minimal CONNECT proxy: records each tunnel's target and pipes bytes both ways.
    proxy = createServer((_req, res) => res.writeHead(405).end());
    proxy.on('connect', (req, clientSocket, head) => {
      tunnels.push(req.url ?? '');
      const [host, port] = (req.url ?? '').split(':');
      const upstream = connect(Number(port), host, () => {
        clientSocket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(clientSocket);
        clientSocket.pipe(upstream);
      });
      upstream.on('error', () => clientSocket.destroy());
      clientSocket.on('error', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    proxy.closeAllConnections();
    await new Promise((resolve) => proxy.close(resolve));
    await fake.close();
  });
  beforeEach(() => {
    tunnels.length = 0;
    fake.reset();
  });

  const route = () => ({ provider: 'custom', model: 'local', baseUrl: `${fake.url}/v1` });
  const call = (env: Record<string, string>) =>
    collectStream(
      streamFromProvider(route(), { model: 'local', messages: [{ role: 'user', content: 'hi' }] }, {
        env,
        apiModeMemory: createApiModeMemory(),
        timeouts: { connectMs: 2000, firstByteMs: 2000, idleMs: 2000 },
      }),
    );

  it('tunnels through HTTP_PROXY', async () => {
    expect(await call({ HTTP_PROXY: proxyUrl })).toMatchObject({ ok: true, text: 'ok' });
    expect(tunnels).toEqual([new URL(fake.url).host]);
    expect(fake.requests).toHaveLength(1);
  });

  it('goes direct for hosts in NO_PROXY', async () => {
    expect(await call({ HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' })).toMatchObject({ ok: true });
    expect(tunnels).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });
});
