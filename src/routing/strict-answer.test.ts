import { describe, expect, it } from 'vitest';
import type { Message } from '../domain/messages.js';
import { askStrict, type SlotText } from './strict-answer.js';

const parse = (text: string) => (text === 'good' ? ({ ok: true, value: 42 } as const) : ({ ok: false, error: `bad: ${text}` } as const));

function scripted(answers: SlotText[]) {
  const seen: Message[][] = [];
  return {
    seen,
    ask: async (messages: readonly Message[]) => {
      seen.push([...messages]);
      return answers.shift()!;
    },
  };
}

describe('askStrict', () => {
  it('takes a first good answer with one call', async () => {
    const slot = scripted([{ ok: true, text: 'good' }]);
    expect(await askStrict({ ask: slot.ask, prompt: 'p', parse, fix: (e) => `fix ${e}` })).toEqual({ ok: true, value: 42 });
    expect(slot.seen).toHaveLength(1);
  });

  it('asks once for a fix, showing the bad answer and the complaint', async () => {
    const slot = scripted([{ ok: true, text: 'x' }, { ok: true, text: 'good' }]);
    expect(await askStrict({ ask: slot.ask, prompt: 'p', parse, fix: (e) => `fix ${e}` })).toEqual({ ok: true, value: 42 });
    expect(slot.seen[1]).toEqual([
      { role: 'user', content: 'p' },
      { role: 'assistant', content: 'x' },
      { role: 'user', content: 'fix bad: x' },
    ]);
  });

  it('refuses after two malformed answers, with the last complaint', async () => {
    const slot = scripted([{ ok: true, text: 'x' }, { ok: true, text: 'y' }, { ok: true, text: 'good' }]);
    expect(await askStrict({ ask: slot.ask, prompt: 'p', parse, fix: (e) => e })).toEqual({ ok: false, kind: 'malformed', error: 'bad: y' });
    expect(slot.seen).toHaveLength(2);
  });

  it('stops at a failed slot call', async () => {
    const slot = scripted([{ ok: false, error: 'down' }]);
    expect(await askStrict({ ask: slot.ask, prompt: 'p', parse, fix: (e) => e })).toEqual({ ok: false, kind: 'slot_failed', error: 'down' });
  });
});
