import { describe, expect, it } from 'vitest';
import { createStartUndo } from './start-undo.js';

describe('createStartUndo', () => {
  it('gives back last first, runs every step when one fails, and logs the failure', async () => {
    const undo = createStartUndo();
    const done: string[] = [];
    const logged: string[] = [];
    undo.push(() => done.push('pids'));
    undo.push(async () => {
      done.push('store');
      throw new Error('disk gone');
    });
    undo.push(async () => void done.push('port'));
    await undo.run({ error: (fields, message) => logged.push(`${message}: ${(fields as { err: string }).err}`) });
    expect(done).toEqual(['port', 'store', 'pids']);
    expect(logged).toEqual(['undoing a failed start: a step failed: disk gone']);
  });

  it('gives back once: a second run does nothing', async () => {
    const undo = createStartUndo();
    let count = 0;
    undo.push(() => count++);
    await undo.run({ error: () => {} });
    await undo.run({ error: () => {} });
    expect(count).toBe(1);
  });
});
