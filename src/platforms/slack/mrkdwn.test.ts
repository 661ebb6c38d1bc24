import { describe, expect, it } from 'vitest';
import { markdownToMrkdwn } from './mrkdwn.js';

describe('markdownToMrkdwn', () => {
  it.each([
    ['**bold**', '*bold*'],
    ['__bold__', '*bold*'],
    ['*it*', '_it_'],
    ['_it_', '_it_'],
    ['~~gone~~', '~gone~'],
    ['[Iris](https://example.com/a?b=1&c=2)', '<https://example.com/a?b=1&amp;c=2|Iris>'],
    ['a & b < c > d', 'a &amp; b &lt; c &gt; d'],
    ['# Title', '*Title*'],
    ['- one\n- two', '• one\n• two'],
    ['> quoted', '> quoted'],
    ['**bold** and *it* together', '*bold* and _it_ together'],
    ['2 * 3 * 4', '2 * 3 * 4'],
  ])('%j → %j', (markdown, mrkdwn) => {
    expect(markdownToMrkdwn(markdown)).toBe(mrkdwn);
  });

  it('keeps code as it is (escaped), inline and fenced', () => {
    expect(markdownToMrkdwn('run `a **b** <c>` now')).toBe('run `a **b** &lt;c&gt;` now');
    expect(markdownToMrkdwn('```ts\nconst x = a && b; // **no**\n```\nafter **bold**')).toBe('```const x = a &amp;&amp; b; // **no**```\nafter *bold*');
  });

  it('an unclosed fence runs to the end', () => {
    expect(markdownToMrkdwn('```\n*x*')).toBe('```*x*```');
  });
});
