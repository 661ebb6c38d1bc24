import { describe, expect, it } from 'vitest';
import type { GatewayView } from '../gateway/status-view.js';
import type { GatewayStatus } from '../routing/status-report.js';
import { EMPTY_INBOX, gatewayProcesses, healthReport } from './health-report.js';

const running = (pid: number, file = 'gateway.pid'): GatewayStatus => ({ state: 'running', pid, pid_file: `/home/${file}` });
const stopped = (file = 'gateway.pid'): GatewayStatus => ({ state: 'not_running', pid_file: `/home/${file}` });

describe('gatewayProcesses', () => {
  it('one pid in both files is an `all` gateway', () => {
    expect(gatewayProcesses(running(10), running(10, 'gateway-worker.pid'))).toEqual([{ pid: 10, role: 'all' }]);
  });

  it('different pids are a listener and a worker side by side', () => {
    expect(gatewayProcesses(running(10), running(11, 'gateway-worker.pid'))).toEqual([
      { pid: 10, role: 'listener' },
      { pid: 11, role: 'worker' },
    ]);
  });

  it('only one file held: that role alone', () => {
    expect(gatewayProcesses(running(10), stopped('gateway-worker.pid'))).toEqual([{ pid: 10, role: 'listener' }]);
    expect(gatewayProcesses(stopped(), running(11, 'gateway-worker.pid'))).toEqual([{ pid: 11, role: 'worker' }]);
  });

  it('a stale pid file is not a process', () => {
    expect(gatewayProcesses({ state: 'stale_pid_file', pid: 9, pid_file: '/home/gateway.pid' }, stopped('gateway-worker.pid'))).toEqual([]);
  });
});

describe('healthReport', () => {
  const view: GatewayView = {
    status: running(10),
    url: 'http://127.0.0.1:8644',
    healthy: true,
    worker: undefined,
    platforms: [{ name: 'telegram', connected: true, detail: 'polling', since: '2026-11-29T11:00:00.000Z' }],
  };

  it('puts the view, the roles, the inbox and the counts together', () => {
    expect(
      healthReport({ view, workerStatus: running(10, 'gateway-worker.pid'), inbox: { accepted: 2, running: 1, done: 0, delivering: 1 }, chat: { inbound: 3, outbox: 4 }, failedWebhooks: { count: 1 }, failedChatSends: { count: 2 } }),
    ).toEqual({
      gateway: { state: 'running', pid: 10, processes: [{ pid: 10, role: 'all' }], listening: true, working: true },
      listener: { url: 'http://127.0.0.1:8644', answers_health: true },
      platforms: [{ name: 'telegram', connected: true, detail: 'polling', since: '2026-11-29T11:00:00.000Z' }],
      inbox: { accepted: 2, running: 1, done: 0, delivering: 1 },
      chat: { inbound: 3, outbox: 4 },
      runs_in_progress: 1,
      failing: { webhook_events_24h: { count: 1 }, chat_sends_24h: { count: 2 } },
    });
  });

  it('a listener alone listens and does not work', () => {
    const report = healthReport({ view, workerStatus: stopped('gateway-worker.pid'), inbox: EMPTY_INBOX, chat: { inbound: 0, outbox: 0 }, failedWebhooks: { count: 0 }, failedChatSends: { count: 0 } });
    expect(report.gateway).toEqual({ state: 'running', pid: 10, processes: [{ pid: 10, role: 'listener' }], listening: true, working: false });
  });

  it('no gateway: no pid, no processes', () => {
    const report = healthReport({
      view: { ...view, status: stopped(), healthy: false, platforms: [] },
      workerStatus: stopped('gateway-worker.pid'),
      inbox: EMPTY_INBOX,
      chat: { inbound: 0, outbox: 0 },
      failedWebhooks: { count: 0 },
      failedChatSends: { count: 0 },
    });
    expect(report.gateway).toEqual({ state: 'not_running', pid: null, processes: [], listening: false, working: false });
  });
});
