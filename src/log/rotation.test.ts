import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rotateIfLarge, rotationOf, rotationSteps } from './rotation.js';

describe('rotationSteps', () => {
  it('drops the oldest and shifts the rest up, oldest first, the live file last', () => {
    expect(rotationSteps('/l/gateway.log', 3)).toEqual({
      remove: '/l/gateway.log.3',
      renames: [
        { from: '/l/gateway.log.2', to: '/l/gateway.log.3' },
        { from: '/l/gateway.log.1', to: '/l/gateway.log.2' },
        { from: '/l/gateway.log', to: '/l/gateway.log.1' },
      ],
    });
    expect(rotationSteps('/l/a.log', 1)).toEqual({ remove: '/l/a.log.1', renames: [{ from: '/l/a.log', to: '/l/a.log.1' }] });
  });
});

describe('rotationOf', () => {
  it('reads the config section in megabytes', () => {
    expect(rotationOf({ max_size_mb: 10, keep: 5 })).toEqual({ maxBytes: 10_485_760, keep: 5 });
    expect(rotationOf({ max_size_mb: 0.5, keep: 1 })).toEqual({ maxBytes: 524_288, keep: 1 });
  });
});

describe('rotateIfLarge', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'iris-rotate-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('leaves a small file alone, and rotates one at the limit keeping `keep` old files', async () => {
    const file = join(dir, 'gateway.log');
    await writeFile(file, 'x'.repeat(99));
    expect(rotateIfLarge(file, { maxBytes: 100, keep: 2 })).toBe(false);
    for (const round of ['first', 'second', 'third']) {
      await writeFile(file, round.padEnd(100, '.'));
      expect(rotateIfLarge(file, { maxBytes: 100, keep: 2 })).toBe(true);
    }
    expect((await readdir(dir)).sort()).toEqual(['gateway.log.1', 'gateway.log.2']);
    expect((await readFile(join(dir, 'gateway.log.1'), 'utf8')).startsWith('third')).toBe(true);
    expect((await readFile(join(dir, 'gateway.log.2'), 'utf8')).startsWith('second')).toBe(true);
  });

  it('does nothing for a file that is not there', () => {
    expect(rotateIfLarge(join(dir, 'none.log'), { maxBytes: 1, keep: 2 })).toBe(false);
  });
});
