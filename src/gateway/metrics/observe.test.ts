import { describe, expect, it } from 'vitest';
import type { Store, UsageRecord } from '../../store/types.js';
import type { WebhookInbox } from '../../store/webhook-types.js';
import { meteredDeliveries, meteredStore, retriesOf, routeLabel, timedRun, UNKNOWN_ROUTE } from './observe.js';

const USAGE: UsageRecord = { sessionId: 's', at: 1, provider: 'openai', model: 'm', task: 'main', inputTokens: 10, outputTokens: 5, cachedTokens: 0, cacheWriteTokens: 0, source: 'cli', costUsd: 0.01 };

describe('routeLabel', () => {
  const known = new Map([['github-pr', {}]]);
  it.each([
    ['github-pr', 'github-pr'],
    ['nope', UNKNOWN_ROUTE],
    [undefined, UNKNOWN_ROUTE],
    ['', UNKNOWN_ROUTE],
  ])('%j → %j', (name, label) => {
    expect(routeLabel(name, known)).toBe(label);
  });
});

describe('retriesOf', () => {
  it.each([[0, 0], [1, 0], [3, 2]])('%i attempts → %i retries', (attempts, retries) => {
    expect(retriesOf(attempts)).toBe(retries);
  });
});

describe('meteredStore', () => {
  it('counts a usage record once it is stored, and one the store refuses not at all', async () => {
    const seen: UsageRecord[] = [];
    let refuse = false;
    const store = {
      recordUsage: async () => {
        if (refuse) throw new Error('refused');
      },
      close: async () => {},
    } as unknown as Store;
    const metered = meteredStore(store, { usage: (record) => seen.push(record) });
    await metered.recordUsage(USAGE);
    refuse = true;
    await expect(metered.recordUsage(USAGE)).rejects.toThrow('refused');
    expect(seen).toEqual([USAGE]);
    expect(Object.keys(metered).sort()).toEqual(Object.keys(store).sort());
  });
});

describe('meteredDeliveries', () => {
  it('reports each delivery end with its attempts, after the inbox recorded it', async () => {
    const calls: string[] = [];
    const inbox = {
      markDelivered: async (id: number, attempts: number) => void calls.push(`delivered ${id} ${attempts}`),
      markDeliveryFailed: async (id: number, attempts: number, reason: string) => void calls.push(`failed ${id} ${attempts} ${reason}`),
    } as unknown as WebhookInbox;
    const metered = meteredDeliveries(inbox, { deliveryFinished: (attempts, ok) => calls.push(`metric ${attempts} ${ok}`) });
    await metered.markDelivered(1, 2);
    await metered.markDeliveryFailed(2, 3, 'gh failed');
    expect(calls).toEqual(['delivered 1 2', 'metric 2 true', 'failed 2 3 gh failed', 'metric 3 false']);
  });
});

describe('timedRun', () => {
  it('reports how a run ended and how long it took', async () => {
    const ended: Array<[string, number]> = [];
    let clock = 1000;
    const run = timedRun(async (n: number) => {
      clock += 2500;
      return n > 0 ? ({ kind: 'done', output: 'x' } as const) : ({ kind: 'interrupted' } as const);
    }, { runFinished: (state, seconds) => ended.push([state, seconds]) }, () => clock);
    expect(await run(1)).toEqual({ kind: 'done', output: 'x' });
    expect(await run(0)).toEqual({ kind: 'interrupted' });
    expect(ended).toEqual([['done', 2.5], ['interrupted', 2.5]]);
  });

  it('counts a run that throws as failed and still throws', async () => {
    const ended: string[] = [];
    const run = timedRun(async (): Promise<{ kind: 'done' }> => {
      throw new Error('bug');
    }, { runFinished: (state) => ended.push(state) }, () => 0);
    await expect(run()).rejects.toThrow('bug');
    expect(ended).toEqual(['failed']);
  });
});
