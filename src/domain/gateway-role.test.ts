import { describe, expect, it } from 'vitest';
import { DEFAULT_GATEWAY_ROLE, GATEWAY_ROLES, isGatewayRole, LISTENER_PID_FILE, ROLE_PLANS, WORK_POLL_MS, WORKER_PID_FILE } from './gateway-role.js';

describe('gateway roles', () => {
  it('each role has its plan: what runs here, and the pid files it holds', () => {
    expect(ROLE_PLANS).toEqual({
      listener: { listens: true, works: false, pidFiles: ['gateway.pid'] },
      worker: { listens: false, works: true, pidFiles: ['gateway-worker.pid'] },
      all: { listens: true, works: true, pidFiles: ['gateway.pid', 'gateway-worker.pid'] },
    });
    expect(Object.keys(ROLE_PLANS).sort()).toEqual([...GATEWAY_ROLES].sort());
  });

  it('the default is all, and the listening pid file stays gateway.pid (what gateway start|stop|status read)', () => {
    expect(DEFAULT_GATEWAY_ROLE).toBe('all');
    expect(LISTENER_PID_FILE).toBe('gateway.pid');
    expect(WORKER_PID_FILE).toBe('gateway-worker.pid');
  });

  it('every role listens or works, and only all does both', () => {
    expect(GATEWAY_ROLES.map((role) => [role, ROLE_PLANS[role].listens, ROLE_PLANS[role].works])).toEqual([
      ['listener', true, false],
      ['worker', false, true],
      ['all', true, true],
    ]);
  });

  it.each([
    ['listener', true],
    ['worker', true],
    ['all', true],
    ['Worker', false],
    ['both', false],
    ['', false],
  ])('isGatewayRole(%j) is %s', (value, expected) => {
    expect(isGatewayRole(value)).toBe(expected);
  });

  it('a worker polls every second for work another process added', () => {
    expect(WORK_POLL_MS).toBe(1_000);
  });
});
