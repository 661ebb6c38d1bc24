import { describe, expect, it } from 'vitest';
import { parseDecomposition, parseTaskSpec, specToMarkdown } from './slot-answers.js';

const spec = { title: 'Dark mode', goal: 'Let users pick a dark theme', context: 'The UI has one theme', acceptance_criteria: ['a toggle exists', 'the choice is kept'] };
const tasks = (n: number) => ({ tasks: Array.from({ length: n }, (_, i) => ({ title: `t${i + 1}`, body: `b${i + 1}` })) });

describe('extra keys a model adds', () => {
  it('are ignored in a specification', () => {
    expect(parseTaskSpec(JSON.stringify({ ...spec, priority: 'high', notes: { a: 1 } }))).toEqual({
      ok: true,
      value: { title: 'Dark mode', goal: 'Let users pick a dark theme', context: 'The UI has one theme', acceptanceCriteria: ['a toggle exists', 'the choice is kept'] },
    });
  });
  it('are ignored at the top and in each task of a decomposition', () => {
    const answer = { tasks: [{ title: 'a', body: 'b', size: 3 }, { title: 'c', body: 'd' }], note: 'x' };
    expect(parseDecomposition(JSON.stringify(answer))).toEqual({ ok: true, value: [{ title: 'a', body: 'b' }, { title: 'c', body: 'd' }] });
  });
});

describe('parseTaskSpec', () => {
  it('accepts exactly {title, goal, context, acceptance_criteria}, surrounding blanks allowed', () => {
    expect(parseTaskSpec(`  ${JSON.stringify(spec)}\n`)).toEqual({
      ok: true,
      value: { title: 'Dark mode', goal: 'Let users pick a dark theme', context: 'The UI has one theme', acceptanceCriteria: ['a toggle exists', 'the choice is kept'] },
    });
  });

  it.each([
    ['prose', 'Here is the spec: {}', 'the answer is not JSON'],
    ['a code fence', '```json\n' + JSON.stringify(spec) + '\n```', 'the answer is not JSON'],
    ['an array', '[]', 'the answer is not a JSON object'],
    ['a missing key', JSON.stringify({ ...spec, goal: undefined }), 'the answer lacks "goal"'],
    ['an empty title', JSON.stringify({ ...spec, title: ' ' }), '"title" must be a non-empty string'],
    ['a numeric context', JSON.stringify({ ...spec, context: 3 }), '"context" must be a non-empty string'],
    ['no criteria', JSON.stringify({ ...spec, acceptance_criteria: [] }), '"acceptance_criteria" must be a non-empty array'],
    ['criteria as a string', JSON.stringify({ ...spec, acceptance_criteria: 'works' }), '"acceptance_criteria" must be a non-empty array'],
    ['a non-string criterion', JSON.stringify({ ...spec, acceptance_criteria: ['ok', 1] }), 'every acceptance criterion must be a non-empty string'],
  ])('refuses %s', (_name, text, error) => {
    expect(parseTaskSpec(text)).toEqual({ ok: false, error });
  });
});

describe('parseDecomposition', () => {
  it.each([2, 5, 8])('accepts %i tasks', (n) => {
    const parsed = parseDecomposition(JSON.stringify(tasks(n)));
    expect(parsed).toEqual({ ok: true, value: tasks(n).tasks });
  });

  it.each([
    ['0 tasks', JSON.stringify(tasks(0)), '0 tasks; there must be 2 to 8'],
    ['1 task', JSON.stringify(tasks(1)), '1 task; there must be 2 to 8'],
    ['9 tasks', JSON.stringify(tasks(9)), '9 tasks; there must be 2 to 8'],
    ['a bare array', JSON.stringify(tasks(3).tasks), 'the answer is not a JSON object'],
    ['tasks not an array', JSON.stringify({ tasks: {} }), '"tasks" must be an array'],
    ['a task without a body', JSON.stringify({ tasks: [{ title: 'a', body: 'b' }, { title: 'c' }] }), 'task 2 lacks "body"'],
    ['a string task', JSON.stringify({ tasks: ['a', 'b'] }), 'task 1 is not a JSON object'],
    ['an empty title', JSON.stringify({ tasks: [{ title: '', body: 'b' }, { title: 'c', body: 'd' }] }), `task 1's "title" and "body" must be non-empty strings`],
    ['not JSON', 'tasks: a, b', 'the answer is not JSON'],
  ])('refuses %s', (_name, text, error) => {
    expect(parseDecomposition(text)).toEqual({ ok: false, error });
  });
});

describe('specToMarkdown', () => {
  it('writes goal, context and the criteria as a checklist', () => {
    const parsed = parseTaskSpec(JSON.stringify(spec));
    expect(parsed.ok).toBe(true);
    expect(specToMarkdown((parsed as Extract<typeof parsed, { ok: true }>).value)).toBe(
      '## Goal\n\nLet users pick a dark theme\n\n## Context\n\nThe UI has one theme\n\n## Acceptance criteria\n\n- [ ] a toggle exists\n- [ ] the choice is kept',
    );
  });
});
