// The device flow against the fake authorization server (real HTTP), with an injected clock and
// sleep: every wait is recorded instead of slept.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOAuthServer, type FakeOAuthServer } from '../../test/fakes/oauth-server.js';
import { DEVICE_CODE_GRANT, runDeviceFlow, type DeviceFlowDeps } from './device-flow.js';
import type { AuthServer } from './server.js';

let fake: FakeOAuthServer;
let server: AuthServer;
beforeAll(async () => {
  fake = await startFakeOAuthServer({ clientIds: ['cid'], interval: 2, expiresIn: 60 });
  server = { deviceAuthorizationUrl: `${fake.url}/oauth/device/code`, tokenUrl: `${fake.url}/oauth/token`, scope: 'inference' };
});
afterAll(() => fake.close());
beforeEach(() => fake.requests.splice(0));

/** A clock that moves only when the flow sleeps; `onSleep` plays the user between polls. */
function fakeTime(onSleep: (n: number) => void = () => {}) {
  let now = 1_000_000;
  const sleeps: number[] = [];
  const deps: DeviceFlowDeps = {
    fetch,
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
      onSleep(sleeps.length);
    },
  };
  return { deps, sleeps };
}

describe('runDeviceFlow', () => {
  it('asks for a code, shows it, polls at the interval until approved, and returns the tokens', async () => {
    fake.scriptPolls('pending', 'pending');
    let shown = '';
    const time = fakeTime((n) => {
      if (n === 3) fake.approve(shown);
    });
    const result = await runDeviceFlow(server, 'cid', (device) => (shown = device.user_code), time.deps);
    expect(result.ok).toBe(true);
    expect(result.ok && result.answer.access_token).toBe(fake.issued.at(-1)?.accessToken);
    expect(time.sleeps).toEqual([2000, 2000, 2000]);
    expect(fake.requests[0]).toMatchObject({ path: '/oauth/device/code', form: { client_id: 'cid', scope: 'inference' } });
    expect(fake.requests[0]?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const polls = fake.tokenRequests();
    expect(polls).toHaveLength(3);
    for (const poll of polls) expect(poll.form).toEqual({ grant_type: DEVICE_CODE_GRANT, device_code: fake.devices.at(-1)?.deviceCode, client_id: 'cid' });
  });

  it('slow_down adds 5 s to this and every later interval', async () => {
    fake.scriptPolls('slow_down', 'pending', 'slow_down');
    let shown = '';
    const time = fakeTime((n) => {
      if (n === 4) fake.approve(shown);
    });
    const result = await runDeviceFlow(server, 'cid', (device) => (shown = device.user_code), time.deps);
    expect(result.ok).toBe(true);
    expect(time.sleeps).toEqual([2000, 7000, 7000, 12000]);
  });

  it.each([
    ['denied by the user', 'deny', { ok: false, code: 'access_denied', message: 'the sign-in was denied' }],
    ['expired at the server', 'script-expired', { ok: false, code: 'expired_token', message: 'the code expired before the sign-in was approved' }],
  ] as const)('%s: a failure with its code', async (_name, how, expected) => {
    if (how === 'script-expired') fake.scriptPolls('pending', 'expired');
    let shown = '';
    const time = fakeTime((n) => {
      if (how === 'deny' && n === 2) fake.deny(shown);
    });
    expect(await runDeviceFlow(server, 'cid', (device) => (shown = device.user_code), time.deps)).toEqual(expected);
  });

  it('stops at the expires_in deadline without polling past it', async () => {
    const time = fakeTime();
    const result = await runDeviceFlow(server, 'cid', () => {}, time.deps);
    expect(result).toEqual({ ok: false, code: 'expired_token', message: 'the code expired before the sign-in was approved' });
    // 60 s at a 2 s interval: the last poll is the one that still leaves time for no other.
    expect(time.sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(60_000);
    expect(fake.tokenRequests().length).toBe(time.sleeps.length);
  });

  it('an unknown client id fails at the start, with the server\'s words', async () => {
    const result = await runDeviceFlow(server, 'someone-else', () => {}, fakeTime().deps);
    expect(result).toEqual({ ok: false, code: 'start_failed', message: `POST ${server.deviceAuthorizationUrl} answered invalid_client: unknown client` });
  });

  it('an unreachable server fails at the start', async () => {
    const result = await runDeviceFlow({ ...server, deviceAuthorizationUrl: 'http://127.0.0.1:9/x' }, 'cid', () => {}, fakeTime().deps);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.code).toBe('start_failed');
  });
});
