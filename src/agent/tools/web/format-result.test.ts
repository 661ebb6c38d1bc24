import { describe, expect, it } from 'vitest';
import { formatOutcomes } from './format-result.js';

describe('formatOutcomes', () => {
  it('names each source, says when a page was summarised, and keeps per-URL errors', () => {
    const result = formatOutcomes([
      { url: 'https://a.example/', ok: true, finalUrl: 'https://a.example/home', title: 'A', text: 'the summary', form: { kind: 'summary', pageChars: 12345, question: 'what?' } },
      { url: 'https://b.example/', ok: false, error: 'HTTP 404 Not Found' },
    ]);
    expect(result).toEqual({
      ok: true,
      content: [
        'Source: https://a.example/',
        'Redirected to: https://a.example/home',
        'Title: A',
        'Summarised by the web_extract model towards the question from 12,345 characters of page text.',
        '',
        'the summary',
        '',
        '---',
        '',
        'Source: https://b.example/',
        'Error: HTTP 404 Not Found',
      ].join('\n'),
    });
  });

  it('is an error only when every page failed', () => {
    expect(formatOutcomes([{ url: 'u', ok: false, error: 'e' }]).ok).toBe(false);
    expect(formatOutcomes([{ url: 'u', ok: true, text: 't', form: { kind: 'whole' } }])).toEqual({ ok: true, content: 'Source: u\n\nt' });
  });

  it('says when only the start of a page is given, and why', () => {
    const { content } = formatOutcomes([{ url: 'u', ok: true, text: 'abcd', form: { kind: 'cut', pageChars: 9000, why: 'the web_extract model failed (boom)' } }]);
    expect(content).toBe('Source: u\nOnly the first 4 of 9,000 characters: the web_extract model failed (boom).\n\nabcd');
  });
});
