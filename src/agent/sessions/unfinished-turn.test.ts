import { describe, expect, it } from 'vitest';
import type { Message } from '../../domain/messages.js';
import { finishedAnswer, withoutUnfinishedTurn } from './unfinished-turn.js';

const earlier: Message[] = [
  { role: 'user', content: 'hi' },
  { role: 'assistant', content: 'hello' },
];

describe('withoutUnfinishedTurn', () => {
  it('drops the cut-off turn: the user message and what followed it', () => {
    expect(withoutUnfinishedTurn([...earlier, { role: 'user', content: 'run ls' }], 'run ls')).toEqual(earlier);
    const partial: Message[] = [
      ...earlier,
      { role: 'user', content: [{ type: 'text', text: 'run ls' }] },
      { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'terminal', arguments: { command: 'ls' } }] },
      { role: 'tool', toolCallId: 't1', name: 'terminal', content: 'a b' },
    ];
    expect(withoutUnfinishedTurn(partial, 'run ls')).toEqual(earlier);
  });

  it('keeps a history whose last turn finished, or whose last user message is another', () => {
    expect(withoutUnfinishedTurn([...earlier, { role: 'user', content: 'again' }, { role: 'assistant', content: 'done' }], 'again')).toBeUndefined();
    expect(withoutUnfinishedTurn([...earlier, { role: 'user', content: 'other' }], 'run ls')).toBeUndefined();
    expect(withoutUnfinishedTurn([], 'x')).toBeUndefined();
  });
});

describe('finishedAnswer', () => {
  it('is the final answer when the last turn is this message and finished', () => {
    const done: Message[] = [...earlier, { role: 'user', content: 'again' }, { role: 'assistant', content: '', toolCalls: [{ id: 't', name: 'x', arguments: {} }] }, { role: 'tool', toolCallId: 't', name: 'x', content: 'r' }, { role: 'assistant', content: 'done' }];
    expect(finishedAnswer(done, 'again')).toBe('done');
  });
  it('is nothing for an unfinished turn or another message', () => {
    expect(finishedAnswer([...earlier, { role: 'user', content: 'again' }], 'again')).toBeUndefined();
    expect(finishedAnswer([...earlier, { role: 'user', content: 'again' }, { role: 'assistant', content: '', toolCalls: [{ id: 't', name: 'x', arguments: {} }] }], 'again')).toBeUndefined();
    expect(finishedAnswer(earlier, 'again')).toBeUndefined();
  });
});
