import { describe, expect, it } from 'vitest';
import { healthAnswer } from './health.js';

const roomy = { freeBytes: 10 * 1024 ** 3, totalBytes: 20 * 1024 ** 3, low: false };
const low = { freeBytes: 1024, totalBytes: 40 * 1024 ** 2, low: true };

describe('healthAnswer', () => {
  it.each([
    { name: 'no probe: the listener alone', report: undefined, status: 200, body: { status: 'ok', platform: 'webhook' } },
    {
      name: 'store up, disk roomy',
      report: { store: 'ok', disk: roomy } as const,
      status: 200,
      body: { status: 'ok', platform: 'webhook', store: 'ok', disk: { free_bytes: roomy.freeBytes, total_bytes: roomy.totalBytes, low: false } },
    },
    {
      name: 'store up, disk low: still 200, with the warning',
      report: { store: 'ok', disk: low } as const,
      status: 200,
      body: { status: 'ok', platform: 'webhook', store: 'ok', disk: { free_bytes: 1024, total_bytes: low.totalBytes, low: true } },
    },
    { name: 'store unreachable: 503', report: { store: 'unreachable' } as const, status: 503, body: { status: 'unavailable', platform: 'webhook', store: 'unreachable' } },
  ])('$name', ({ report, status, body }) => {
    expect(healthAnswer(report)).toEqual({ status, body });
  });
});
