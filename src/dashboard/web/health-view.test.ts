import { describe, expect, it } from 'vitest';
import type { Health } from './health-api.js';
import { failingChip, gatewayChip, healthChips, inboxChip, listenerChip, platformChips, runsChip } from './health-view.js';

const healthy: Health = {
  gateway: { state: 'running', pid: 10, processes: [{ pid: 10, role: 'all' }], listening: true, working: true },
  listener: { url: 'http://127.0.0.1:8644', answers_health: true },
  platforms: [],
  inbox: { accepted: 0, running: 0, done: 0, delivering: 0 },
  chat: { inbound: 0, outbox: 0 },
  runs_in_progress: 0,
  failing: { webhook_events_24h: { count: 0 }, chat_sends_24h: { count: 0 } },
};
const stopped: Health = { ...healthy, gateway: { state: 'not_running', pid: null, processes: [], listening: false, working: false }, listener: { url: 'http://127.0.0.1:8644', answers_health: false } };

describe('gatewayChip', () => {
  it('running and answering: ok, with its roles in the detail', () => {
    expect(gatewayChip(healthy)).toEqual({ key: 'gateway', text: 'gateway: running', tone: 'ok', detail: 'listener + worker (pid 10)' });
  });

  it('not running: a problem, with the command that starts it', () => {
    expect(gatewayChip(stopped)).toEqual({ key: 'gateway', text: 'gateway: not running', tone: 'bad', detail: 'Start it with: iris gateway start' });
    expect(gatewayChip({ ...stopped, gateway: { ...stopped.gateway, state: 'stale_pid_file' } }).text).toBe('gateway: not running (stale pid file)');
  });

  it('running but not answering /health: a warning', () => {
    expect(gatewayChip({ ...healthy, listener: { ...healthy.listener, answers_health: false } })).toMatchObject({ text: 'gateway: running, not answering', tone: 'warn' });
  });

  it('only one role running: a warning that names the missing half', () => {
    const listenerOnly = { ...healthy, gateway: { state: 'running' as const, pid: 10, processes: [{ pid: 10, role: 'listener' as const }], listening: true, working: false } };
    expect(gatewayChip(listenerOnly)).toEqual({ key: 'gateway', text: 'gateway: listener only', tone: 'warn', detail: 'listener (pid 10); no worker runs what comes in' });
    const workerOnly = { ...healthy, gateway: { state: 'not_running' as const, pid: null, processes: [{ pid: 11, role: 'worker' as const }], listening: false, working: true } };
    expect(gatewayChip(workerOnly)).toMatchObject({ text: 'gateway: worker only', tone: 'warn' });
    expect(listenerChip(workerOnly)).toBeUndefined();
  });
});

describe('the other chips', () => {
  it('the listener shows its address without the scheme', () => {
    expect(listenerChip(healthy)).toMatchObject({ text: 'listener: 127.0.0.1:8644', tone: 'ok' });
    expect(listenerChip(stopped)).toBeUndefined();
  });

  it('platforms: connected ok, disconnected a problem, never reported a warning', () => {
    const chips = platformChips({
      ...healthy,
      platforms: [
        { name: 'telegram', connected: true, detail: 'polling', since: '2026-11-29T11:00:00.000Z' },
        { name: 'slack', connected: false, detail: 'reconnecting: 401 Unauthorized', since: '2026-11-29T11:30:00.000Z' },
        { name: 'discord', connected: false, detail: 'not reported by the gateway', since: null },
      ],
    });
    expect(chips.map((chip) => [chip.text, chip.tone, chip.detail])).toEqual([
      ['telegram: connected', 'ok', 'polling since 2026-11-29T11:00:00.000Z'],
      ['slack: disconnected', 'bad', 'reconnecting: 401 Unauthorized since 2026-11-29T11:30:00.000Z'],
      ['discord: unknown', 'warn', 'not reported by the gateway'],
    ]);
  });

  it('the inbox: its depth; a warning when deep or when no worker drains it', () => {
    const inbox = { accepted: 2, running: 1, done: 1, delivering: 0 };
    expect(inboxChip({ ...healthy, inbox })).toEqual({ key: 'inbox', text: 'inbox: 4', tone: 'ok', detail: '2 accepted, 1 running, 1 done, 0 delivering; chat: 0 waiting, 0 to send' });
    expect(inboxChip({ ...stopped, inbox })).toMatchObject({ text: 'inbox: 4 (no worker)', tone: 'warn' });
    expect(inboxChip({ ...healthy, inbox: { ...inbox, accepted: 48 } })).toMatchObject({ text: 'inbox: 50', tone: 'warn' });
  });

  it('failed deliveries: webhook events and chat replies together, a problem when any, each kind named', () => {
    expect(failingChip(healthy)).toEqual({ key: 'failing', text: 'failed deliveries (24 h): 0', tone: 'ok', detail: 'No webhook event or chat reply failed in the last 24 hours' });
    expect(failingChip({ ...healthy, failing: { webhook_events_24h: { count: 1_200 }, chat_sends_24h: { count: 0 } } })).toEqual({
      key: 'failing',
      text: 'failed deliveries (24 h): 1200',
      tone: 'bad',
      detail: 'Failed in the last 24 hours: 1200 webhook events (see Deliveries)',
    });
    expect(failingChip({ ...healthy, failing: { webhook_events_24h: { count: 1 }, chat_sends_24h: { count: 1 } } })).toMatchObject({
      text: 'failed deliveries (24 h): 2',
      detail: 'Failed in the last 24 hours: 1 webhook event (see Deliveries); 1 chat reply not sent (see Logs)',
    });
    expect(failingChip({ ...healthy, failing: { webhook_events_24h: { count: 0 }, chat_sends_24h: { count: 3 } } })).toMatchObject({ text: 'failed deliveries (24 h): 3', tone: 'bad', detail: 'Failed in the last 24 hours: 3 chat replies not sent (see Logs)' });
  });

  it('runs: in progress while a gateway works; cut off (a warning) while none does', () => {
    expect(runsChip({ ...healthy, runs_in_progress: 1 })).toEqual({ key: 'runs', text: 'runs: 1 running', tone: 'ok', detail: '1 webhook run in progress' });
    expect(runsChip({ ...stopped, runs_in_progress: 2 })).toEqual({ key: 'runs', text: 'runs: 2 cut off', tone: 'warn', detail: '2 webhook runs marked running with no gateway working: they run again when one starts' });
    expect(runsChip({ ...stopped, runs_in_progress: 0 })).toMatchObject({ text: 'runs: 0 running', tone: 'ok' });
  });

  it('the strip in order', () => {
    expect(healthChips(healthy).map((chip) => chip.text)).toEqual(['gateway: running', 'listener: 127.0.0.1:8644', 'inbox: 0', 'runs: 0 running', 'failed deliveries (24 h): 0']);
    expect(healthChips(stopped).map((chip) => chip.text)).toEqual(['gateway: not running', 'inbox: 0', 'runs: 0 running', 'failed deliveries (24 h): 0']);
  });
});
