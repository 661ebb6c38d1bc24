import { describe, expect, it } from 'vitest';
import { dropDecision, groupBoard, keyboardTarget, moveAnnouncement, timeText } from './kanban-board.js';

const tasks = [
  { id: 3, status: 'doing' },
  { id: 1, status: 'todo' },
  { id: 2, status: 'todo' },
  { id: 4, status: 'someday' },
  { id: 5, status: 'blocked' },
];

describe('groupBoard', () => {
  it('puts each card in its column, oldest first, and drops an unknown status', () => {
    const columns = groupBoard(tasks);
    expect(Object.keys(columns)).toEqual(['triage', 'todo', 'doing', 'done', 'blocked']);
    expect(columns.todo.map((t) => t.id)).toEqual([1, 2]);
    expect(columns.doing.map((t) => t.id)).toEqual([3]);
    expect(columns.blocked.map((t) => t.id)).toEqual([5]);
    expect(columns.triage).toEqual([]);
    expect(columns.done).toEqual([]);
  });
});

describe('keyboardTarget', () => {
  it('moves one column left or right with Alt', () => {
    expect(keyboardTarget('todo', { key: 'ArrowRight', altKey: true })).toBe('doing');
    expect(keyboardTarget('todo', { key: 'ArrowLeft', altKey: true })).toBe('triage');
  });
  it('goes nowhere past the edges, without Alt, on other keys or an unknown status', () => {
    expect(keyboardTarget('triage', { key: 'ArrowLeft', altKey: true })).toBeUndefined();
    expect(keyboardTarget('blocked', { key: 'ArrowRight', altKey: true })).toBeUndefined();
    expect(keyboardTarget('todo', { key: 'ArrowRight', altKey: false })).toBeUndefined();
    expect(keyboardTarget('todo', { key: 'ArrowUp', altKey: true })).toBeUndefined();
    expect(keyboardTarget('someday', { key: 'ArrowRight', altKey: true })).toBeUndefined();
  });
});

describe('dropDecision', () => {
  it('moves a card of the board dropped on another column', () => {
    expect(dropDecision('1', 'doing', tasks)).toEqual({ move: true, id: 1, to: 'doing' });
  });
  it('ignores a drop on its own column, an unknown card, a foreign payload or column', () => {
    expect(dropDecision('1', 'todo', tasks)).toEqual({ move: false });
    expect(dropDecision('99', 'doing', tasks)).toEqual({ move: false });
    expect(dropDecision('https://example.com', 'doing', tasks)).toEqual({ move: false });
    expect(dropDecision('1.5', 'doing', tasks)).toEqual({ move: false });
    expect(dropDecision('', 'doing', tasks)).toEqual({ move: false });
    expect(dropDecision('1', 'later', tasks)).toEqual({ move: false });
  });
});

describe('moveAnnouncement', () => {
  it('names the card and the column', () => {
    expect(moveAnnouncement({ id: 7, title: 'Ship it' }, 'todo')).toBe('Moved #7 “Ship it” to To do.');
  });
});

describe('timeText', () => {
  it('shortens an ISO time to the minute, in UTC; anything else is shown as it came', () => {
    expect(timeText('2026-11-20T10:04:59.123Z')).toBe('2026-11-20 10:04 UTC');
    expect(timeText('yesterday')).toBe('yesterday');
  });
});
