import { describe, expect, it } from 'vitest';
import { parseSessionCommand } from './chat-session-commands.js';

describe('parseSessionCommand', () => {
  it.each([
    ['/sessions', { kind: 'sessions' }],
    ['  /sessions  ', { kind: 'sessions' }],
    ['/resume s_abcd', { kind: 'resume', name: 's_abcd' }],
    ['/resume   Fix   the build ', { kind: 'resume', name: 'Fix the build' }],
    ['/resume', { kind: 'resume', name: '' }],
    ['/title New  name', { kind: 'title', title: 'New name' }],
    ['/title', { kind: 'title', title: '' }],
  ])('reads %j', (line, command) => {
    expect(parseSessionCommand(line)).toEqual(command);
  });
  it.each(['/session', '/resumes x', '/titles', 'resume x', '/new', '/model gpt-5'])('leaves %j to others', (line) => {
    expect(parseSessionCommand(line)).toBeUndefined();
  });
});
