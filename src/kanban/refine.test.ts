// specify and decompose against a real board and a scripted slot: only a parsed answer touches
// the board, and a refusal leaves it exactly as it was.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test/helpers/iris.js';
import type { SlotText } from '../routing/strict-answer.js';
import { openSqliteStore } from '../store/sqlite-store.js';
import type { Store } from '../store/types.js';
import { decomposeTask, specifyTask, type AskKanbanSlot, type KanbanSlot } from './refine.js';

let dir: string;
let store: Store;
beforeEach(async () => {
  dir = await makeTempDir('iris-refine-');
  store = await openSqliteStore(join(dir, 'state.db'));
});
afterEach(async () => {
  await store.close();
  await removeDir(dir);
});

function scripted(...answers: SlotText[]): { ask: AskKanbanSlot; slots: KanbanSlot[] } {
  const slots: KanbanSlot[] = [];
  return {
    slots,
    ask: async (slot) => {
      slots.push(slot);
      return answers.shift() ?? { ok: false, error: 'unscripted' };
    },
  };
}
const ok = (value: unknown): SlotText => ({ ok: true, text: JSON.stringify(value) });
const SPEC = { title: 'T', goal: 'G', context: 'C', acceptance_criteria: ['A'] };

describe('specifyTask', () => {
  it('writes the spec as the body and moves the task to todo, after one fix', async () => {
    await store.kanban.create({ title: 'rough' });
    const slot = scripted({ ok: true, text: 'nope' }, ok(SPEC));
    const result = await specifyTask(store.kanban, 1, slot.ask);
    expect(result).toMatchObject({ ok: true, task: { id: 1, title: 'T', status: 'todo', body: '## Goal\n\nG\n\n## Context\n\nC\n\n## Acceptance criteria\n\n- [ ] A' } });
    expect(slot.slots).toEqual(['triage_specifier', 'triage_specifier']);
  });

  it('refuses a twice-malformed answer and a failed slot, changing nothing', async () => {
    const task = await store.kanban.create({ title: 'rough' });
    expect(await specifyTask(store.kanban, 1, scripted({ ok: true, text: '{}' }, { ok: true, text: '[]' }).ask)).toEqual({
      ok: false,
      code: 'malformed',
      error: "the triage_specifier slot's answer was malformed twice (the answer is not a JSON object); nothing was changed",
    });
    expect(await specifyTask(store.kanban, 1, scripted({ ok: false, error: 'every candidate failed' }).ask)).toEqual({
      ok: false,
      code: 'slot_failed',
      error: 'the triage_specifier slot failed: every candidate failed',
    });
    expect(await store.kanban.list()).toEqual([task]);
  });

  it('answers not_found without asking the slot', async () => {
    const slot = scripted(ok(SPEC));
    expect(await specifyTask(store.kanban, 4, slot.ask)).toEqual({ ok: false, code: 'not_found', error: 'no kanban task 4' });
    expect(slot.slots).toEqual([]);
  });
});

describe('decomposeTask', () => {
  it('creates the children in todo under the task', async () => {
    await store.kanban.create({ title: 'big' });
    const result = await decomposeTask(store.kanban, 1, scripted(ok({ tasks: [{ title: 'a', body: 'x' }, { title: 'b', body: 'y' }] })).ask);
    expect(result.ok).toBe(true);
    expect((await store.kanban.list()).map((t) => [t.id, t.title, t.status, t.parentId])).toEqual([
      [1, 'big', 'triage', null],
      [2, 'a', 'todo', 1],
      [3, 'b', 'todo', 1],
    ]);
  });

  it('creates nothing when the answer has 1 and then 9 tasks', async () => {
    const task = await store.kanban.create({ title: 'big' });
    const one = ok({ tasks: [{ title: 'a', body: 'x' }] });
    const nine = ok({ tasks: Array.from({ length: 9 }, (_, i) => ({ title: `t${i}`, body: 'x' })) });
    expect(await decomposeTask(store.kanban, 1, scripted(one, nine).ask)).toMatchObject({ ok: false, code: 'malformed' });
    expect(await store.kanban.list()).toEqual([task]);
  });
});
