import { describe, expect, it } from 'vitest';
import { formatDoctorText, summaryLine } from './format.js';
import { buildReport, fail, ok, shellWord, warn } from './types.js';

describe('formatDoctorText', () => {
  it('one line per check, details and fix under problems, then the summary', () => {
    const report = buildReport([
      ok('home', 'home', '/h (mode 0700)'),
      warn('webhook', 'webhook', 'port taken', 'pick another'),
      fail('identity_token', 'identity token', 'no token', 'sign in', ['environment: not configured', 'broker: not available']),
    ]);
    expect(report.healthy).toBe(false);
    expect(formatDoctorText(report, false)).toBe(
      [
        '✓ home: /h (mode 0700)',
        '! webhook: port taken',
        '  fix: pick another',
        '✗ identity token: no token',
        '    environment: not configured',
        '    broker: not available',
        '  fix: sign in',
        'not healthy: 1 ok, 1 warning, 1 failed',
        '',
      ].join('\n'),
    );
  });

  it('warnings alone leave it healthy; --offline is said', () => {
    const report = buildReport([ok('a', 'a', 'x'), warn('b', 'b', 'y', 'z'), warn('c', 'c', 'y', 'z')]);
    expect(report.healthy).toBe(true);
    expect(summaryLine(report, true)).toBe('healthy: 1 ok, 2 warnings, 0 failed (--offline: live probes skipped)');
  });
});

describe('shellWord', () => {
  it.each([
    ['/home/me/.iris/config.yaml', '/home/me/.iris/config.yaml'],
    ['/srv/my iris', "'/srv/my iris'"],
    ["/srv/it's", "'/srv/it'\\''s'"],
  ])('%s', (text, word) => {
    expect(shellWord(text)).toBe(word);
  });
});
