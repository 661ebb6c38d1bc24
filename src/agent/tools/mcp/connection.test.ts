// An MCP server over HTTP is the owner's (its address is not guarded), but where it redirects is
// not: the transport follows a redirect only within the server's own origin. Both servers here
// are on loopback; the second stands for anywhere else.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startPageServer, type PageServer } from '../../../../test/fakes/page-server.js';
import { connectMcpServer } from './connection.js';

let server: PageServer;
let elsewhere: PageServer;
beforeEach(async () => {
  server = await startPageServer('127.0.0.1');
  elsewhere = await startPageServer('127.0.0.2');
});
afterEach(async () => {
  await server.close();
  await elsewhere.close();
});

const connect = (url: string) => connectMcpServer({ name: 'web', enabled: true, transport: { kind: 'http', url, headers: {} } }, 5000);

describe('connectMcpServer over HTTP', () => {
  it('does not follow a redirect to another origin', async () => {
    server.serve('/mcp', { kind: 'redirect', status: 307, location: `${elsewhere.url}/mcp` });
    const result = await connect(`${server.url}/mcp`);
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining(`Redirect to ${elsewhere.url}/mcp not followed`) as unknown });
    expect(server.requests.map((r) => r.path)).toEqual(['/mcp']);
    expect(elsewhere.requests).toEqual([]);
  });

  it('follows one within its own origin', async () => {
    server.serve('/old', { kind: 'redirect', status: 307, location: '/mcp' });
    const result = await connect(`${server.url}/old`);
    expect(result.ok).toBe(false);
    expect(server.requests.map((r) => r.path)).toEqual(['/old', '/mcp']);
  });
});
