import { describe, expect, it } from 'vitest';
import { assignmentText, auxTargetFromWire, auxTargetToWire, type AuxTarget } from './assignment.js';

describe('assignmentText', () => {
  it.each([
    [{ provider: 'auto', model: '' }, 'auto'],
    [{ provider: '', model: '' }, 'auto'],
    [{ provider: ' openai ', model: '' }, 'openai (default model)'],
    [{ provider: 'openai', model: 'gpt-5' }, 'openai · gpt-5'],
    [{ provider: '', model: 'gpt-5' }, 'auto · gpt-5'],
  ])('reads %j as %j', (assignment, text) => {
    expect(assignmentText(assignment)).toBe(text);
  });
});

describe('the aux target on the REST wire', () => {
  it.each<[string, AuxTarget]>([
    ['', { kind: 'all' }],
    ['__reset__', { kind: 'reset' }],
    ['vision', { kind: 'one', task: 'vision' }],
    ['nope', { kind: 'one', task: 'nope' }],
  ])('%j ⇄ %j', (wire, target) => {
    expect(auxTargetFromWire(wire)).toEqual(target);
    expect(auxTargetToWire(target)).toBe(wire);
  });
});
