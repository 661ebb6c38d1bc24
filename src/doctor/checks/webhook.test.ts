import { describe, expect, it } from 'vitest';
import type { GatewayStatus } from '../../routing/status-report.js';
import { checkWebhook } from './webhook.js';

const PID_FILE = '/home/me/.iris/gateway.pid';
const STOPPED: GatewayStatus = { state: 'not_running', pid_file: PID_FILE };

describe('checkWebhook', () => {
  it('a running gateway needs no bind test', () => {
    expect(checkWebhook({ state: 'running', pid: 42, pid_file: PID_FILE }, '0.0.0.0', 8644, undefined)).toEqual({
      id: 'webhook',
      name: 'webhook',
      status: 'ok',
      finding: 'the gateway is running (pid 42)',
    });
  });

  it('not running, and the port is free', () => {
    expect(checkWebhook(STOPPED, '0.0.0.0', 8644, { ok: true })).toMatchObject({
      status: 'ok',
      finding: 'the gateway is not running; 0.0.0.0:8644 is free (start it with iris gateway start)',
    });
    expect(checkWebhook({ state: 'stale_pid_file', pid: 7, pid_file: PID_FILE }, '127.0.0.1', 9000, { ok: true }).finding).toBe(
      `the gateway is not running (stale pid file ${PID_FILE}); 127.0.0.1:9000 is free (start it with iris gateway start)`,
    );
    expect(checkWebhook(STOPPED, '0.0.0.0', 0, undefined).finding).toBe('the gateway is not running; it listens on a free port picked at start (extra.port: 0)');
  });

  it.each([
    ['EADDRINUSE', 'the gateway is not running, and 127.0.0.1:8644 is taken by another program', 'iris config set platforms.webhook.extra.port <a free port>, or stop the program on port 8644'],
    ['EACCES', 'the gateway is not running, and listening on 127.0.0.1:8644 is not allowed (ports below 1024 need privileges)', 'iris config set platforms.webhook.extra.port <a free port> above 1023'],
    ['EADDRNOTAVAIL', 'the gateway is not running, and 127.0.0.1 is not an address of this machine', 'iris config set platforms.webhook.extra.host 0.0.0.0 (or 127.0.0.1)'],
    ['EINVAL', 'the gateway is not running, and 127.0.0.1:8644 cannot be bound: boom', 'iris config set platforms.webhook.extra.port <a free port>, or iris config set platforms.webhook.extra.host <address>'],
  ])('%s is a warning with its fix', (code, finding, fix) => {
    expect(checkWebhook(STOPPED, '127.0.0.1', 8644, { ok: false, code, message: 'boom' })).toEqual({ id: 'webhook', name: 'webhook', status: 'warn', finding, fix });
  });
});
