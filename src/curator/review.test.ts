import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test/helpers/iris.js';
import type { Message } from '../domain/messages.js';
import { archiveSkills } from './archive.js';
import { DAY_MS, reviewSkills, type SlotAnswer } from './review.js';

let skills: string;
beforeEach(async () => {
  skills = await makeTempDir('iris-skills-');
});
afterEach(() => removeDir(skills));

async function addSkill(name: string, description: string, body = 'Steps.'): Promise<void> {
  await mkdir(join(skills, name), { recursive: true });
  await writeFile(join(skills, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`);
}

const NOW = Date.UTC(2026, 10, 26);

/** A slot that answers from a list, recording every conversation it was given. */
function scriptedSlot(answers: readonly SlotAnswer[]) {
  const calls: Message[][] = [];
  return {
    calls,
    ask: async (_system: string, messages: readonly Message[]) => {
      calls.push([...messages]);
      return answers[calls.length - 1] ?? { ok: false as const, error: 'no more answers' };
    },
  };
}

const loads = { usageSince: async (since: number) => (since === NOW - 7 * DAY_MS ? [{ skill: 'deploy', loads: 4, lastLoadAt: NOW - DAY_MS }] : []) };

describe('reviewSkills', () => {
  it('gives the slot the skills with their usage in the window, and returns its proposals', async () => {
    await addSkill('deploy', 'Deploys.');
    await addSkill('old', 'Old.');
    const slot = scriptedSlot([{ ok: true, text: JSON.stringify({ proposals: [{ skill: 'old', action: 'archive', reason: 'never loaded' }] }) }]);
    const result = await reviewSkills({ skillsDir: skills, skillLoads: loads, ask: slot.ask, days: 7, now: NOW });
    expect(result).toMatchObject({ ok: true, proposals: [{ skill: 'old', action: 'archive', reason: 'never loaded' }] });
    expect(slot.calls).toHaveLength(1);
    expect(slot.calls[0]![0]!.content).toContain('## deploy\ndescription: Deploys.\nloads in the last 7 days: 4');
    expect(slot.calls[0]![0]!.content).toContain('## old\ndescription: Old.\nloads in the last 7 days: 0');
  });

  it('asks once for a fix, with the error, and takes the fixed answer', async () => {
    await addSkill('deploy', 'Deploys.');
    const slot = scriptedSlot([
      { ok: true, text: JSON.stringify({ proposals: [{ skill: 'nope', action: 'archive', reason: 'r' }] }) },
      { ok: true, text: JSON.stringify({ proposals: [{ skill: 'deploy', action: 'keep', reason: 'used' }] }) },
    ]);
    const result = await reviewSkills({ skillsDir: skills, skillLoads: loads, ask: slot.ask, days: 30, now: NOW });
    expect(result).toMatchObject({ ok: true, proposals: [{ skill: 'deploy', action: 'keep' }] });
    expect(slot.calls[1]!.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(slot.calls[1]![2]!.content).toContain('unknown skill "nope"');
  });

  it('refuses after a second malformed answer, and when the slot fails', async () => {
    await addSkill('deploy', 'Deploys.');
    const twice = scriptedSlot([{ ok: true, text: 'no' }, { ok: true, text: JSON.stringify({ proposals: [{ skill: 'deploy', action: 'merge', reason: 'r' }] }) }]);
    const refused = await reviewSkills({ skillsDir: skills, skillLoads: loads, ask: twice.ask, days: 30, now: NOW });
    expect(refused).toMatchObject({ ok: false, code: 'malformed' });
    expect((refused as { error: string }).error).toContain('malformed twice (proposal 1 merges deploy without "into")');
    const down = scriptedSlot([{ ok: false, error: 'HTTP 503' }]);
    expect(await reviewSkills({ skillsDir: skills, skillLoads: loads, ask: down.ask, days: 30, now: NOW })).toEqual({
      ok: false,
      code: 'slot_failed',
      error: 'the curator slot failed: HTTP 503',
    });
  });

  it('does not call the slot without skills', async () => {
    const slot = scriptedSlot([]);
    expect(await reviewSkills({ skillsDir: join(skills, 'none'), skillLoads: loads, ask: slot.ask, days: 30, now: NOW })).toEqual({ ok: true, skills: [], proposals: [], invalid: [] });
    expect(slot.calls).toHaveLength(0);
  });
});

describe('archiveSkills', () => {
  it('moves folders into .archive, with a suffix when the name is taken, deleting nothing', async () => {
    await addSkill('old', 'Old.');
    await mkdir(join(skills, '.archive', 'old'), { recursive: true });
    await writeFile(join(skills, '.archive', 'old', 'SKILL.md'), 'earlier');
    const moved = await archiveSkills(skills, ['old']);
    expect(moved).toEqual([{ skill: 'old', to: join(skills, '.archive', 'old-2') }]);
    expect((await readdir(join(skills, '.archive'))).sort()).toEqual(['old', 'old-2']);
    expect(await readdir(skills)).toEqual(['.archive']);
  });

  it('moves nothing when any name breaks the name rule', async () => {
    await addSkill('old', 'Old.');
    await expect(archiveSkills(skills, ['old', '../old'])).rejects.toThrow('skill name "../old" must match');
    expect(await readdir(skills)).toEqual(['old']);
  });
});
