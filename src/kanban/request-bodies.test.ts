import { describe, expect, it } from 'vitest';
import { checkStatus, checkTaskId, parseNewTask, parseTaskPatch } from './request-bodies.js';

describe('checkTaskId', () => {
  it('takes a positive whole number and refuses the rest with the CLI message', () => {
    expect(checkTaskId('12')).toEqual({ ok: true, value: 12 });
    for (const text of ['0', '-1', '1.5', 'abc', '', '1e3', '99999999999999999999']) {
      expect(checkTaskId(text)).toEqual({ ok: false, error: `a task id is a positive whole number (got "${text}")` });
    }
  });
});

describe('checkStatus', () => {
  it('knows the five columns', () => {
    expect(checkStatus('blocked')).toEqual({ ok: true, value: 'blocked' });
    expect(checkStatus('later')).toEqual({ ok: false, error: 'unknown status "later" (allowed: triage, todo, doing, done, blocked)' });
  });
});

describe('parseNewTask', () => {
  it('trims the title and keeps only the fields given', () => {
    expect(parseNewTask({ title: '  dark mode ' })).toEqual({ ok: true, value: { title: 'dark mode' } });
    expect(parseNewTask({ title: 'x', body: '## Goal', status: 'todo' })).toEqual({ ok: true, value: { title: 'x', body: '## Goal', status: 'todo' } });
  });
  it('refuses a non-object, an unknown field, a blank or multi-line or long title, a bad body or status', () => {
    expect(parseNewTask(null)).toEqual({ ok: false, error: 'the body must be a JSON object {"title": "...", "body"?: "...", "status"?: "triage"}' });
    expect(parseNewTask({ title: 'x', parent_id: 1 })).toEqual({ ok: false, error: 'unknown field "parent_id" (known: title, body, status)' });
    expect(parseNewTask({})).toEqual({ ok: false, error: 'title must be a string' });
    expect(parseNewTask({ title: '   ' })).toEqual({ ok: false, error: 'a task needs a one-line title' });
    expect(parseNewTask({ title: 'a\r\nb' })).toEqual({ ok: false, error: 'a title is one line (put the details in the body)' });
    expect(parseNewTask({ title: 'y'.repeat(201) })).toEqual({ ok: false, error: 'title is 201 characters; the limit is 200' });
    expect(parseNewTask({ title: 'x', body: 3 })).toEqual({ ok: false, error: 'body must be a string' });
    expect(parseNewTask({ title: 'x', body: 'b'.repeat(50_001) })).toEqual({ ok: false, error: 'body is 50001 characters; the limit is 50000' });
    expect(parseNewTask({ title: 'x', status: 'x'.repeat(41) })).toEqual({ ok: false, error: 'status must be one of triage, todo, doing, done, blocked' });
  });
});

describe('parseTaskPatch', () => {
  it('a move, an edit, or both', () => {
    expect(parseTaskPatch({ status: 'doing' })).toEqual({ ok: true, value: { status: 'doing' } });
    expect(parseTaskPatch({ title: ' New ', body: '' })).toEqual({ ok: true, value: { title: 'New', body: '' } });
  });
  it('refuses an empty patch, an unknown field and a bad value', () => {
    expect(parseTaskPatch({})).toEqual({ ok: false, error: 'nothing to change: give status, title or body' });
    expect(parseTaskPatch({ parent_id: 2 })).toEqual({ ok: false, error: 'unknown field "parent_id" (known: status, title, body)' });
    expect(parseTaskPatch({ status: 'someday' })).toEqual({ ok: false, error: 'unknown status "someday" (allowed: triage, todo, doing, done, blocked)' });
    expect(parseTaskPatch({ status: 'done', title: '' })).toEqual({ ok: false, error: 'a task needs a one-line title' });
    expect(parseTaskPatch('doing')).toEqual({ ok: false, error: 'the body must be a JSON object {"status"?: "doing", "title"?: "...", "body"?: "..."}' });
  });
});
