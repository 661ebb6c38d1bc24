// Shared by the SMS adapter tests: settings as config would give them, a recording log, and a real
// loopback server that routes `/platforms/sms` to a handler the way the gateway does.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SmsConfig } from '../../src/config/schema.js';
import type { InboundMessage, InboundSink, PlatformLog } from '../../src/platforms/types.js';

export const TEST_ACCOUNT_SID = 'AC0123456789abcdef0123456789abcdef';
export const TEST_AUTH_TOKEN = 'f00dfeedc0ffee0123456789abcdef01';
export const TEST_ENV = Object.freeze({ TWILIO_ACCOUNT_SID: TEST_ACCOUNT_SID, TWILIO_AUTH_TOKEN: TEST_AUTH_TOKEN });

export function smsExtra(over: Partial<SmsConfig['extra']> = {}): SmsConfig['extra'] {
  return {
    allowed_users: [],
    owners: [],
    allow_all_users: false,
    home_channel: '',
    group_sessions_per_user: true,
    api_base: 'https://api.twilio.com',
    from: '+15550001111',
    public_url: 'https://iris.example.com/platforms/sms',
    ...over,
  };
}

export type LogLine = { level: 'debug' | 'info' | 'warn' | 'error'; fields: object; message: string };

export function recordingLog(): PlatformLog & { lines: LogLine[]; text(): string } {
  const lines: LogLine[] = [];
  const at = (level: LogLine['level']) => (fields: object, message: string) => void lines.push({ level, fields, message });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), text: () => JSON.stringify(lines) };
}

export type RecordingSink = InboundSink & { received: InboundMessage[]; fail: Error | null };

export function recordingSink(): RecordingSink {
  const sink = (async (message: InboundMessage) => {
    if (sink.fail) throw sink.fail;
    sink.received.push(message);
  }) as RecordingSink;
  sink.received = [];
  sink.fail = null;
  return sink;
}

type Handle = (req: IncomingMessage, res: ServerResponse, sink: InboundSink) => Promise<void>;

/** A listener on 127.0.0.1 whose URL is known before the handler is made (the handler signs over it). */
export async function startLoopbackGateway(sink: InboundSink): Promise<{ url: string; server: Server; route(path: string, handle: Handle): void; close(): Promise<void> }> {
  let routed: { path: string; handle: Handle } | undefined;
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (!routed || path !== routed.path) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"Not found"}');
      return;
    }
    void routed.handle(req, res, sink);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    route(path, handle) {
      routed = { path, handle };
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
