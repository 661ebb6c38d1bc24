import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir, removeDir } from '../../test/helpers/iris.js';
import { readLastRun, reviewDue, writeLastRun } from './schedule.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 10, 26, 12);

describe('reviewDue', () => {
  it.each([
    ['off, never run', 'off', null, false],
    ['off, long ago', 'off', NOW - 100 * DAY, false],
    ['daily, never run', 'daily', null, true],
    ['daily, an hour ago', 'daily', NOW - HOUR, false],
    ['daily, just under a day', 'daily', NOW - DAY + 1, false],
    ['daily, a day ago', 'daily', NOW - DAY, true],
    ['weekly, never run', 'weekly', null, true],
    ['weekly, six days ago', 'weekly', NOW - 6 * DAY, false],
    ['weekly, a week ago', 'weekly', NOW - 7 * DAY, true],
    ['daily, in the future (clock set back)', 'daily', NOW + HOUR, true],
  ] as const)('%s', (_name, schedule, last, due) => {
    expect(reviewDue(schedule, last, NOW)).toBe(due);
  });
});

describe('the last run file', () => {
  let home: string;
  beforeEach(async () => {
    home = await makeTempDir('iris-curator-');
  });
  afterEach(() => removeDir(home));

  it('is null until written, then the time written, owner-only', async () => {
    expect(await readLastRun(home)).toBeNull();
    await writeLastRun(home, NOW);
    expect(await readLastRun(home)).toBe(NOW);
    expect((await stat(join(home, 'curator', 'last-run.json'))).mode & 0o777).toBe(0o600);
  });
});
