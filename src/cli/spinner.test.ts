import { describe, expect, it } from 'vitest';
import { spinnerFrame, startSpinner, waitingText } from './spinner.js';

describe('the spinner', () => {
  it('says what it waits for and for how long, in whole seconds', () => {
    expect(waitingText('waiting for custom · fake-small', 12_900)).toBe('waiting for custom · fake-small (12 s)…');
    expect(waitingText('probing', -5)).toBe('probing (0 s)…');
  });

  it('redraws one line in place', () => {
    expect(spinnerFrame(0, 'x')).toBe('\r\u001b[2K⠋ x');
    expect(spinnerFrame(11, 'x')).toBe('\r\u001b[2K⠙ x');
  });

  it('writes nothing at all to a stream that is not a terminal', () => {
    const written: string[] = [];
    const spinner = startSpinner({ isTTY: false, write: (t: string) => written.push(t) }, () => 'waiting');
    spinner.stop();
    expect(written).toEqual([]);
  });

  it('on a terminal, draws at once and erases its line when stopped, once', () => {
    const written: string[] = [];
    let clock = 1_000;
    const spinner = startSpinner({ isTTY: true, write: (t: string) => written.push(t) }, (ms) => waitingText('waiting for m', ms), { now: () => clock, intervalMs: 60_000 });
    clock = 4_500;
    spinner.stop();
    spinner.stop();
    expect(written).toEqual(['\r\u001b[2K⠋ waiting for m (0 s)…', '\r\u001b[2K']);
  });
});
