import { redactText } from '../../log/redact.js';
import { describe, expect, it } from 'vitest';
import { applyChatEvent, itemsFromMessages, type ChatEvent, type ChatItem } from './chat-items.js';

const fold = (events: ChatEvent[], from: ChatItem[] = []) => events.reduce<ChatItem[]>(applyChatEvent, from);

describe('itemsFromMessages', () => {
  it('puts each tool result on its call and leaves empty assistant text out', () => {
    expect(
      itemsFromMessages([
        { role: 'user', content: 'list files' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'run_command', arguments: { command: 'ls' } }] },
        { role: 'tool', toolCallId: 'c1', name: 'run_command', content: 'a.txt', isError: false },
        { role: 'assistant', content: 'One file.' },
        { role: 'user', content: [{ type: 'text', text: 'and this?' }, { type: 'image', mediaType: 'image/png', data: 'x' } as never] },
      ]),
    ).toEqual([
      { kind: 'user', text: 'list files' },
      { kind: 'tool', id: 'c1', name: 'run_command', arguments: '{"command":"ls"}', ok: true, result: 'a.txt' },
      { kind: 'assistant', text: 'One file.' },
      { kind: 'user', text: 'and this?\n[image]' },
    ]);
  });
});

describe('applyChatEvent', () => {
  it('folds a run into the same items the store gives after it', () => {
    const items = fold([
      { type: 'run_start', runId: 'r1', text: 'list files' },
      { type: 'text', delta: 'Let me ' },
      { type: 'text', delta: 'look.' },
      { type: 'tool_start', id: 'c1', name: 'run_command', arguments: '{"command":"ls"}' },
      { type: 'tool_end', id: 'c1', ok: false, result: 'denied' },
      { type: 'text', delta: 'Done.' },
      { type: 'done', reason: 'done' },
    ]);
    expect(items).toEqual([
      { kind: 'user', text: 'list files' },
      { kind: 'assistant', text: 'Let me look.' },
      { kind: 'tool', id: 'c1', name: 'run_command', arguments: '{"command":"ls"}', ok: false, result: 'denied' },
      { kind: 'assistant', text: 'Done.' },
    ]);
  });

  it('shows an approval, then its answer; ends with a notice or an error', () => {
    const risk = { level: 'high' as const, reasons: ['deletes files'], source: 'model' as const };
    expect(
      fold([
        { type: 'approval', id: 'a1', command: 'rm x', cwd: '/w', risk },
        { type: 'approval_done', id: 'a1', approved: false, reason: 'denied in the dashboard' },
        { type: 'stopped' },
        { type: 'error', message: 'upstream 500' },
      ]),
    ).toEqual([
      { kind: 'approval', id: 'a1', command: 'rm x', cwd: '/w', risk, answer: { approved: false, reason: 'denied in the dashboard' } },
      { kind: 'notice', text: 'stopped; the session keeps what was said' },
      { kind: 'error', text: 'upstream 500' },
    ]);
  });

  it('never changes the array it was given', () => {
    const before: ChatItem[] = [{ kind: 'assistant', text: 'a' }];
    const after = applyChatEvent(before, { type: 'text', delta: 'b' });
    expect(before).toEqual([{ kind: 'assistant', text: 'a' }]);
    expect(after).toEqual([{ kind: 'assistant', text: 'ab' }]);
  });
});

describe('itemsFromMessages with a cleaner', () => {
  it('cleans a step’s arguments and result before they are shown', () => {
    const items = itemsFromMessages(
      [
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'run_command', arguments: { command: 'env' } }] },
        { role: 'tool', toolCallId: 'c1', name: 'run_command', content: 'KEY=sk-live0123456789' },
      ],
      redactText,
    );
    expect(items).toEqual([{ kind: 'tool', id: 'c1', name: 'run_command', arguments: '{"command":"env"}', ok: true, result: 'KEY=sk-[redacted]' }]);
  });
});
