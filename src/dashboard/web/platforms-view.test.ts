import { describe, expect, it } from 'vitest';
import { ageText, connectionChip, testOutcomeText, userText } from './platforms-view.js';

describe('platforms view words', () => {
  it('names each connection state with a tone', () => {
    expect(connectionChip('connected')).toEqual({ label: 'Connected', className: 'platform-chip platform-chip-ok' });
    expect(connectionChip('disconnected')).toEqual({ label: 'Disconnected', className: 'platform-chip platform-chip-bad' });
    expect(connectionChip('gateway_stopped')).toEqual({ label: 'Gateway stopped', className: 'platform-chip platform-chip-idle' });
  });

  it('says how old a code is', () => {
    expect(ageText(5)).toBe('5s ago');
    expect(ageText(125)).toBe('2m ago');
    expect(ageText(7300)).toBe('2h ago');
  });

  it('shows a name beside the id', () => {
    expect(userText('42', 'Ada')).toBe('Ada (42)');
    expect(userText('42', null)).toBe('42');
  });

  it('tells the test outcome', () => {
    expect(testOutcomeText('333', { id: 7, state: 'sent', last_error: null }, true)).toBe('Sent to 333 (outbox #7).');
    expect(testOutcomeText('333', { id: 7, state: 'failed', last_error: 'chat not found' }, true)).toBe('Not sent to 333: chat not found (outbox #7).');
    expect(testOutcomeText('333', { id: 7, state: 'queued', last_error: null }, false)).toBe('Queued for 333 as outbox #7; the gateway sends it when it runs (iris gateway start).');
  });
});
