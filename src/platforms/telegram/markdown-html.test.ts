import { describe, expect, it } from 'vitest';
import { readTelegramHtml } from '../../../test/fakes/telegram-api-html.js';
import { escapeHtml, isBalanced, markdownToTelegramHtml as html } from './markdown-html.js';

describe('markdownToTelegramHtml: escaping', () => {
  it('escapes &, < and > and nothing else', () => {
    expect(html('a < b && c > d "q" \'s\'')).toBe('a &lt; b &amp;&amp; c &gt; d "q" \'s\'');
  });

  it('leaves plain text alone', () => {
    expect(html('just words, 2 * 3 = 6, snake_case_name and 5_000')).toBe('just words, 2 * 3 = 6, snake_case_name and 5_000');
  });

  it('does not let HTML in the Markdown through as tags', () => {
    expect(html('<b>not bold</b> <script>x</script>')).toBe('&lt;b&gt;not bold&lt;/b&gt; &lt;script&gt;x&lt;/script&gt;');
  });

  it('escapeHtml escapes the three characters', () => {
    expect(escapeHtml('<&>')).toBe('&lt;&amp;&gt;');
  });
});

describe('markdownToTelegramHtml: emphasis', () => {
  it.each([
    ['**bold**', '<b>bold</b>'],
    ['__bold__', '<b>bold</b>'],
    ['*italic*', '<i>italic</i>'],
    ['_italic_', '<i>italic</i>'],
    ['***both***', '<b><i>both</i></b>'],
    ['~~struck~~', '<s>struck</s>'],
    ['**bold** then *it* and _it_', '<b>bold</b> then <i>it</i> and <i>it</i>'],
    ['**a & b**', '<b>a &amp; b</b>'],
    ['**bold with *italic* inside**', '<b>bold with <i>italic</i> inside</b>'],
    ['*x*', '<i>x</i>'],
  ])('%s', (markdown, expected) => {
    expect(html(markdown)).toBe(expected);
  });

  it.each([
    ['a lone star', '5 * 3'],
    ['spaced stars', 'a * b * c'],
    ['underscores inside words', 'call my_func_name now'],
    ['double underscores inside words', 'use __init__ok'],
    ['an unclosed marker', '**not closed'],
  ])('leaves %s as written', (_name, markdown) => {
    expect(html(markdown)).toBe(markdown);
  });

  it('drops emphasis on a line whose markers would cross, keeping the words', () => {
    expect(html('**a *b** c*')).toBe('**a *b** c*');
  });

  it('honours backslash escapes', () => {
    expect(html('\\*not italic\\* and \\_no\\_')).toBe('*not italic* and _no_');
  });
});

describe('markdownToTelegramHtml: code', () => {
  it('renders inline code escaped and unformatted', () => {
    expect(html('run `a < b && **c**` now')).toBe('run <code>a &lt; b &amp;&amp; **c**</code> now');
  });

  it('takes double-backtick spans with a backtick inside', () => {
    expect(html('``a`b``')).toBe('<code>a`b</code>');
  });

  it('renders a fenced block with its language', () => {
    expect(html('before\n```ts\nconst a = 1 < 2;\n**x**\n```\nafter')).toBe(
      'before\n<pre><code class="language-ts">const a = 1 &lt; 2;\n**x**</code></pre>\nafter',
    );
  });

  it('renders a fenced block without a language, and ~~~ fences', () => {
    expect(html('```\nplain\n```')).toBe('<pre><code>plain</code></pre>');
    expect(html('~~~\nx ``` y\n~~~')).toBe('<pre><code>x ``` y</code></pre>');
  });

  it('closes a fence the answer never closed', () => {
    expect(html('```py\nprint(1)')).toBe('<pre><code class="language-py">print(1)</code></pre>');
  });

  it('keeps blank lines and indentation inside a fence', () => {
    expect(html('```\n  a\n\n  b\n```')).toBe('<pre><code>  a\n\n  b</code></pre>');
  });
});

describe('markdownToTelegramHtml: links', () => {
  it('renders a link, escaping the address as an attribute', () => {
    expect(html('[the docs](https://e.com/?a=1&b="2")')).toBe('<a href="https://e.com/?a=1&amp;b=&quot;2&quot;">the docs</a>');
  });

  it('formats the link text', () => {
    expect(html('[**b** `c`](https://x.y)')).toBe('<a href="https://x.y"><b>b</b> <code>c</code></a>');
  });

  it('does not link a javascript: address, showing it instead', () => {
    expect(html('[click](javascript:void)')).toBe('click (javascript:void)');
  });

  it('leaves bare and angle-bracket URLs as text (Telegram links them), untouched by emphasis', () => {
    expect(html('see https://x.com/a_b_c_d and <https://y.org/*z*>')).toBe('see https://x.com/a_b_c_d and https://y.org/*z*');
  });

  it('keeps parentheses inside the address', () => {
    expect(html('[Foo](https://en.wikipedia.org/wiki/Foo_(bar)) after')).toBe('<a href="https://en.wikipedia.org/wiki/Foo_(bar)">Foo</a> after');
  });

  it('takes a title after the address', () => {
    expect(html('[a](https://x.y "the title")')).toBe('<a href="https://x.y">a</a>');
  });

  it('leaves trailing punctuation and markers out of a bare URL', () => {
    expect(html('*see https://x.y/p*, or https://z.org.')).toBe('<i>see https://x.y/p</i>, or https://z.org.');
  });

  it('renders an image as a link to it', () => {
    expect(html('![a cat](https://c.at/1.png)')).toBe('<a href="https://c.at/1.png">a cat</a>');
  });
});

describe('markdownToTelegramHtml: blocks', () => {
  it('makes headings bold lines (no bold nested in them)', () => {
    expect(html('# Title\n## Sub **x** ##')).toBe('<b>Title</b>\n<b>Sub x</b>');
  });

  it('makes bullets', () => {
    expect(html('- one\n* two *it*\n  + nested')).toBe('• one\n• two <i>it</i>\n  • nested');
  });

  it('joins quoted lines into one blockquote', () => {
    expect(html('> a *b*\n> c\n\nafter')).toBe('<blockquote>a <i>b</i>\nc</blockquote>\n\nafter');
  });

  it('turns a rule into a line', () => {
    expect(html('a\n---\nb')).toBe('a\n———\nb');
  });

  it('normalises CRLF', () => {
    expect(html('a\r\n**b**\r\n')).toBe('a\n<b>b</b>\n');
  });
});

describe('markdownToTelegramHtml: what Telegram accepts', () => {
  const samples = [
    '# Plan\n\n1. **Read** the `config.yaml`\n2. Run *tests* & fix <errors>\n\n```bash\nnpm test > out.txt\n```\n> note: [docs](https://x.y/?a&b)',
    '**a *b** c*',
    '***x** y*',
    'a_b *c_d* __e__',
    '[a](https://x.y) ~~**z**~~ `<&>`',
    '\uE000 placeholder char in input \uE0000\uE000',
  ];
  it.each(samples)('renders balanced HTML with known tags and entities: %j', (markdown) => {
    const out = html(markdown);
    expect(isBalanced(out)).toBe(true);
    expect(readTelegramHtml(out)).toMatchObject({ ok: true });
  });

  it('isBalanced sees crossing and unclosed tags', () => {
    expect(isBalanced('<b><i>x</i></b>')).toBe(true);
    expect(isBalanced('<b><i>x</b></i>')).toBe(false);
    expect(isBalanced('<b>x')).toBe(false);
    expect(isBalanced('x</b>')).toBe(false);
  });
});

describe('markdownToTelegramHtml: any input', () => {
  // Deterministic pseudo-random Markdown from the pieces that trip converters up: whatever the
  // mix, Telegram's HTML reader (the fake's, which is strict) must accept the result.
  const PIECES = ['*', '**', '_', '__', '`', '```', '~~', '[', ']', '(', ')', 'https://a.b/c_d', '<', '>', '&', '"', 'word', ' ', '\n', '# ', '- ', '> ', '\\', '~~~', '***'];
  let seed = 12345;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const samples = Array.from({ length: 400 }, () =>
    Array.from({ length: 1 + Math.floor(random() * 30) }, () => PIECES[Math.floor(random() * PIECES.length)] ?? '').join(''),
  );

  it('always renders HTML that Telegram accepts', () => {
    const refused = samples
      .map((markdown) => ({ markdown, reading: readTelegramHtml(html(markdown)) }))
      .filter(({ reading }) => !reading.ok)
      .map(({ markdown, reading }) => ({ markdown, html: html(markdown), reading }));
    expect(refused).toEqual([]);
  });
});
