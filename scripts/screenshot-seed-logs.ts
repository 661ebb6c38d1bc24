// The Logs page's screenshot data: a morning of gateway, agent and audit lines in
// $IRIS_HOME/logs, placed relative to `now` and written as the gateway's pino logger and the audit
// log write them (JSON lines), one with a key in it that the page shows redacted.
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';

const MINUTE = 60_000;

type Line = { readonly ago: number; readonly [key: string]: unknown };

const GATEWAY: readonly Line[] = [
  { ago: 95, level: 30, msg: 'gateway listening', host: '127.0.0.1', port: 8644, role: 'all' },
  { ago: 94, level: 30, msg: 'platform connected', platform: 'telegram', detail: 'polling' },
  { ago: 80, level: 30, msg: 'webhook accepted', route: 'pr-review', event: 'pull_request', delivery: '8f1c2e70-4a1b' },
  { ago: 79, level: 30, msg: 'run finished', route: 'pr-review', session: 'sess-screenshot-hook', ms: 41_250 },
  { ago: 78, level: 30, msg: 'delivered', route: 'pr-review', target: 'github_comment', attempts: 1 },
  { ago: 52, level: 40, msg: 'webhook refused', route: 'pr-review', reason: 'bad signature', from: '203.0.113.9' },
  { ago: 41, level: 40, msg: 'platform reconnecting', platform: 'telegram', detail: 'reconnecting: 502 Bad Gateway', attempt: 2 },
  { ago: 40, level: 30, msg: 'platform connected', platform: 'telegram', detail: 'polling' },
  { ago: 23, level: 50, msg: 'upstream refused the key sk-or-v1-0123456789abcdefghij', provider: 'openrouter', status: 401, route: 'nightly' },
  { ago: 22, level: 30, msg: 'fallback taken', from: 'openrouter', to: 'openai', route: 'nightly' },
  { ago: 9, level: 30, msg: 'message answered', platform: 'telegram', chat: '-100200300', ms: 3_420 },
  { ago: 2, level: 30, msg: 'webhook accepted', route: 'pr-review', event: 'issue_comment', delivery: '1d9a77c3-02ef' },
];

const AGENT: readonly Line[] = [
  { ago: 79, level: 30, msg: 'tool call', tool: 'terminal', session: 'sess-screenshot-hook', ms: 812 },
  { ago: 60, level: 30, msg: 'context compressed', session: 'sess-screenshot-chat', before_tokens: 96_000, after_tokens: 31_500 },
  { ago: 23, level: 40, msg: 'provider failed, trying the next', provider: 'openrouter', status: 401 },
];

const AUDIT: readonly Line[] = [
  { ago: 70, actor: 'dashboard:token', from: '127.0.0.1', action: 'model.set', target: 'main openrouter/anthropic/claude-sonnet-4.5', ok: true },
  { ago: 35, actor: 'cli', from: 'local', action: 'pairing.approve', target: 'telegram 41822', ok: true },
  { ago: 12, actor: 'dashboard:password', from: '10.0.0.7', action: 'sign_in', target: '', ok: false, reason: 'wrong password' },
];

function pinoLines(lines: readonly Line[], now: number, log: string): string {
  return lines.map(({ ago, ...rest }) => `${JSON.stringify({ ...rest, time: now - ago * MINUTE, pid: 4242, hostname: 'iris-box', log })}\n`).join('');
}

export async function seedLogs(home: string, now: number): Promise<void> {
  const dir = join(home, 'logs');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await appendFile(join(dir, 'gateway.log'), pinoLines(GATEWAY, now, 'gateway'), { mode: 0o600 });
  await appendFile(join(dir, 'agent.log'), pinoLines(AGENT, now, 'agent'), { mode: 0o600 });
  const audit = AUDIT.map(({ ago, ...rest }) => `${JSON.stringify({ time: new Date(now - ago * MINUTE).toISOString(), ...rest })}\n`).join('');
  await appendFile(join(dir, 'audit.log'), audit, { mode: 0o600 });
}
