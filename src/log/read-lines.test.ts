import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { logFiles, readAllEntries, readNewestEntries } from './read-lines.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'iris-read-lines-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const line = (n: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ level: n % 5 === 0 ? 'warn' : 'info', time: Date.UTC(2026, 10, 28, 10, 0, n), msg: `line ${n}`, ...extra });

async function writeLines(name: string, numbers: readonly number[], extra: (n: number) => Record<string, unknown> = () => ({})) {
  await writeFile(join(dir, name), numbers.map((n) => `${line(n, extra(n))}\n`).join(''));
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('logFiles', () => {
  it('lists the rotated files by number, highest first, then the live one; nothing else', async () => {
    for (const name of ['gateway.log', 'gateway.log.1', 'gateway.log.10', 'gateway.log.2', 'agent.log', 'gateway.log.old']) await writeFile(join(dir, name), '');
    expect(await logFiles(dir, 'gateway')).toEqual(['gateway.log.10', 'gateway.log.2', 'gateway.log.1', 'gateway.log'].map((name) => join(dir, name)));
  });

  it('gives nothing for a missing folder', async () => {
    expect(await logFiles(join(dir, 'missing'), 'audit')).toEqual([]);
  });
});

describe('readNewestEntries', () => {
  it('reads newest first across the live file and the rotated ones, stopping at the limit', async () => {
    await writeLines('gateway.log.2', range(1, 10));
    await writeLines('gateway.log.1', range(11, 20));
    await writeLines('gateway.log', range(21, 25));
    const found = await readNewestEntries(dir, 'gateway', {}, 8, { chunkBytes: 37 });
    expect(found.entries.map((e) => e.what)).toEqual(['line 25', 'line 24', 'line 23', 'line 22', 'line 21', 'line 20', 'line 19', 'line 18']);
    expect(found.scanLimited).toBe(false);
  });

  it('filters while reading: level, text, route', async () => {
    await writeLines('gateway.log', range(1, 30), (n) => ({ route: n % 2 === 0 ? 'ci' : 'docs' }));
    const warn = await readNewestEntries(dir, 'gateway', { minLevel: 'warn' }, 100, { chunkBytes: 50 });
    expect(warn.entries.map((e) => e.what)).toEqual(['line 30', 'line 25', 'line 20', 'line 15', 'line 10', 'line 5']);
    const text = await readNewestEntries(dir, 'gateway', { text: 'LINE 1', route: 'ci' }, 100);
    expect(text.entries.map((e) => e.what)).toEqual(['line 18', 'line 16', 'line 14', 'line 12', 'line 10']);
  });

  it('reads only as far back as it needs: the budget stops it and says so', async () => {
    await writeLines('gateway.log.1', range(1, 1000));
    await writeLines('gateway.log', range(1001, 1010));
    const found = await readNewestEntries(dir, 'gateway', { text: 'line 3' }, 5, { chunkBytes: 100, budgetBytes: 2000 });
    expect(found.entries).toEqual([]);
    expect(found.scanLimited).toBe(true);
    const near = await readNewestEntries(dir, 'gateway', {}, 3, { chunkBytes: 100, budgetBytes: 2000 });
    expect(near.entries.map((e) => e.what)).toEqual(['line 1010', 'line 1009', 'line 1008']);
    expect(near.scanLimited).toBe(false);
  });

  it('keeps multi-byte characters whole across chunk boundaries, and a last line without a newline', async () => {
    const text = `${JSON.stringify({ level: 'info', time: 1, msg: 'ünïcødé → 🦋 one' })}\n${JSON.stringify({ level: 'info', time: 2, msg: 'ünïcødé → 🦋 two' })}`;
    await writeFile(join(dir, 'agent.log'), text);
    for (const chunkBytes of [1, 2, 3, 5, 7, 64]) {
      const found = await readNewestEntries(dir, 'agent', {}, 10, { chunkBytes });
      expect(found.entries.map((e) => e.what)).toEqual(['ünïcødé → 🦋 two', 'ünïcødé → 🦋 one']);
    }
  });

  it('skips a line longer than the line cap instead of holding it', async () => {
    await writeFile(join(dir, 'gateway.log'), `${line(1)}\n${'x'.repeat(5000)}\n${line(2)}\n`);
    const found = await readNewestEntries(dir, 'gateway', {}, 10, { chunkBytes: 256, maxLineBytes: 1000 });
    expect(found.entries.map((e) => e.what)).toEqual(['line 2', 'line 1']);
  });

  it('redacts what it reads', async () => {
    await writeFile(join(dir, 'gateway.log'), `${JSON.stringify({ level: 'error', time: 1, msg: 'upstream refused sk-live-0123456789abcdef', api_key: 'plain-secret-value' })}\n`);
    const [entry] = (await readNewestEntries(dir, 'gateway', {}, 1)).entries;
    expect(entry).toEqual({ source: 'gateway', time: '1970-01-01T00:00:00.001Z', level: 'error', what: 'upstream refused sk-[redacted]', fields: { api_key: '[redacted]' } });
  });

  it('gives nothing for a log that does not exist', async () => {
    await mkdir(join(dir, 'empty'));
    expect(await readNewestEntries(join(dir, 'empty'), 'audit', {}, 10)).toEqual({ entries: [], scanLimited: false });
  });
});

describe('readAllEntries', () => {
  it('reads every file of the logs in time order', async () => {
    await writeLines('gateway.log.1', [1, 3]);
    await writeLines('gateway.log', [5]);
    await writeLines('agent.log', [2, 4]);
    expect((await readAllEntries(dir, ['gateway', 'agent'])).map((e) => `${e.source} ${e.what}`)).toEqual([
      'gateway line 1',
      'agent line 2',
      'gateway line 3',
      'agent line 4',
      'gateway line 5',
    ]);
  });
});
