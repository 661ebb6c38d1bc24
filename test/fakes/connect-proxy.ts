// A fake forward proxy: answers CONNECT by tunnelling to one fixed upstream (whatever name was
// asked for), the way a corporate proxy resolves names the client cannot. Records each target.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export type ConnectProxy = {
  url: string;
  /** `host:port` of every CONNECT, in order. */
  targets: string[];
  close(): Promise<void>;
};

export async function startConnectProxy(upstreamPort: number): Promise<ConnectProxy> {
  const targets: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((_req, res) => res.writeHead(405).end('CONNECT only'));
  server.on('connect', (req, client: Socket, head: Buffer) => {
    targets.push(req.url ?? '');
    const upstream = connect(upstreamPort, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    targets,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
