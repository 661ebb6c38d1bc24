// The subscriptions file: its names, and its change signal (a watch on the folder, and a periodic maybe).
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSubscriptions, watchForChanges } from './subscriptions.js';

describe('watchForChanges', () => {
  it('says "maybe" first, then only after the file is replaced in its folder', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'iris-watch-'));
    const file = join(folder, 'webhook_subscriptions.json');
    const changes = watchForChanges(file, 60_000);
    try {
      expect(changes.take()).toBe(true);
      expect(changes.take()).toBe(false);
      await writeFile(join(folder, 'unrelated.txt'), 'x');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(changes.take()).toBe(false);
      await writeFile(join(folder, '.tmp'), '{}');
      await rename(join(folder, '.tmp'), file);
      const deadline = Date.now() + 5_000;
      let seen = false;
      while (!seen && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        seen = changes.take();
      }
      expect(seen).toBe(true);
      expect(changes.take()).toBe(false);
    } finally {
      changes.close();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('says "maybe" again after the recheck interval, even without a watch event', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'iris-watch-'));
    const changes = watchForChanges(join(folder, 'webhook_subscriptions.json'), 50);
    try {
      expect(changes.take()).toBe(true);
      expect(changes.take()).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 120));
      expect(changes.take()).toBe(true);
    } finally {
      changes.close();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('a folder that does not exist: every call is a maybe', () => {
    const changes = watchForChanges('/nonexistent-iris-folder/webhook_subscriptions.json', 60_000);
    expect([changes.take(), changes.take(), changes.take()]).toEqual([true, true, true]);
    changes.close();
  });
});

describe('parseSubscriptions', () => {
  it('ignores an entry whose name breaks the name rule, saying which rule', () => {
    const entry = { secret: 's'.repeat(32), created_at: '2026-01-01T00:00:00.000Z' };
    const text = JSON.stringify({ version: 1, subscriptions: { '../x': entry, _old: entry, ok: entry } });
    const parsed = parseSubscriptions(text, '/h/webhook_subscriptions.json');
    expect(Object.keys(parsed.subscriptions)).toEqual(['ok']);
    const rule = 'must match ^[a-z0-9][a-z0-9._-]{0,63}$ (lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64) and cannot contain ".."';
    expect(parsed.problems).toEqual([
      `/h/webhook_subscriptions.json: route name "../x" ${rule}; it is ignored`,
      `/h/webhook_subscriptions.json: route name "_old" ${rule}; it is ignored`,
    ]);
  });
});
