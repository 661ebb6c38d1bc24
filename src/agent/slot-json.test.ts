import { describe, expect, it } from 'vitest';
import { askSlotJson, type AskSlot, type SlotAnswer } from './slot-json.js';

function scripted(...answers: SlotAnswer[]): AskSlot & { calls: Array<{ system: string; messages: unknown[] }> } {
  const calls: Array<{ system: string; messages: unknown[] }> = [];
  const ask = async (system: string, messages: readonly unknown[]) => {
    calls.push({ system, messages: [...messages] });
    return answers[Math.min(calls.length - 1, answers.length - 1)] as SlotAnswer;
  };
  return Object.assign(ask as AskSlot, { calls });
}

describe('askSlotJson', () => {
  const request = { system: 's', prompt: 'p', maxOutputTokens: 10, parse: (t: string) => (t === 'good' ? { ok: true as const, value: 1 } : { ok: false as const, error: 'bad' }), fix: (e: string) => `fix: ${e}` };

  it('asks once more with the answer and what was wrong, then gives up', async () => {
    const ask = scripted({ ok: true, text: 'nope' }, { ok: true, text: 'good' });
    expect(await askSlotJson(ask, request)).toEqual({ ok: true, value: 1 });
    expect(ask.calls[1]?.messages).toEqual([{ role: 'user', content: 'p' }, { role: 'assistant', content: 'nope' }, { role: 'user', content: 'fix: bad' }]);
    const twice = scripted({ ok: true, text: 'nope' });
    expect(await askSlotJson(twice, request)).toEqual({ ok: false, kind: 'malformed', error: 'bad' });
    expect(twice.calls).toHaveLength(2);
  });

  it('does not retry a failed call', async () => {
    const ask = scripted({ ok: false, error: 'down' });
    expect(await askSlotJson(ask, request)).toEqual({ ok: false, kind: 'failed', error: 'down' });
    expect(ask.calls).toHaveLength(1);
  });
});

