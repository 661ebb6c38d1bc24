// The agent's Markdown as Telegram HTML (sendMessage with parse_mode HTML). Pure.
//
// HTML rather than MarkdownV2: in HTML only `&`, `<` and `>` need escaping, where MarkdownV2 wants
// eighteen characters escaped outside entities and a different set inside them, and a model's
// Markdown is not MarkdownV2 anyway. Telegram knows b, i, s, u, code, pre, a, blockquote and no
// lists or headings, so bullets become "•" and headings bold lines.
//
// Telegram refuses the whole message over one unbalanced tag. Emphasis markers in model output
// do not always pair up (`**a *b** c*`), so a line whose tags would cross is sent without its
// emphasis; and should anything still be refused, `send` falls back to plain text.

const PLACEHOLDER = /\uE000(\d+)\uE000/g;
const SAFE_LINK = /^(https?:|tg:|mailto:)/i;
/** `(url)` or `(url "title")`; the address may hold one level of parentheses (Wikipedia's do). */
const LINK_TARGET = String.raw`\(((?:[^()\s]|\([^()\s]*\))+)(?:\s+"[^"]*")?\)`;
const IMAGE = new RegExp(String.raw`!\[([^\]]*)\]` + LINK_TARGET, 'g');
const LINK = new RegExp(String.raw`\[([^\]]+)\]` + LINK_TARGET, 'g');

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(text: string): string {
  return escapeHtml(text).replace(/"/g, '&quot;');
}

export function markdownToTelegramHtml(markdown: string): string {
  // The placeholder character below (private use) must not occur in the text itself.
  const lines = markdown.replace(/\r\n?/g, '\n').replace(/\uE000/g, '').split('\n');
  const out: string[] = [];
  let fence: { char: string; length: number; language: string; body: string[] } | null = null;
  let quote: string[] = [];
  const flushQuote = () => {
    if (quote.length > 0) out.push(`<blockquote>${quote.join('\n')}</blockquote>`);
    quote = [];
  };

  for (const line of lines) {
    if (fence) {
      const close = /^\s{0,3}(`{3,}|~{3,})\s*$/.exec(line);
      if (close?.[1] && close[1][0] === fence.char && close[1].length >= fence.length) {
        out.push(renderFence(fence.language, fence.body));
        fence = null;
      } else {
        fence.body.push(line);
      }
      continue;
    }
    const open = /^\s{0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/.exec(line);
    if (open?.[1]) {
      flushQuote();
      fence = { char: open[1][0] ?? '`', length: open[1].length, language: open[2] ?? '', body: [] };
      continue;
    }
    const quoted = /^\s{0,3}>\s?(.*)$/.exec(line);
    if (quoted) {
      quote.push(renderInline(quoted[1] ?? ''));
      continue;
    }
    flushQuote();
    out.push(renderLine(line));
  }
  // An answer cut off inside a fence still shows as code.
  if (fence) out.push(renderFence(fence.language, fence.body));
  flushQuote();
  return out.join('\n');
}

function renderFence(language: string, body: readonly string[]): string {
  const attribute = language ? ` class="language-${escapeAttribute(language)}"` : '';
  return `<pre><code${attribute}>${escapeHtml(body.join('\n'))}</code></pre>`;
}

function renderLine(line: string): string {
  const heading = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
  // Bold inside a bold line says nothing more; Telegram's nested same-kind entities help nobody.
  if (heading) return `<b>${renderInline(heading[1] ?? '').replace(/<\/?b>/g, '')}</b>`;
  if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) return '———';
  const bullet = /^(\s*)[*+-]\s+(.*)$/.exec(line);
  if (bullet) return `${bullet[1] ?? ''}• ${renderInline(bullet[2] ?? '')}`;
  return renderInline(line);
}

/** One line's inline Markdown; without its emphasis when the emphasis tags would not nest. */
export function renderInline(source: string): string {
  const html = inline(source, true);
  return isBalanced(html) ? html : inline(source, false);
}

function inline(source: string, withEmphasis: boolean): string {
  // Code, links and URLs are rendered first and parked behind placeholders, so that emphasis
  // markers inside them (`a_b_c`, `**kwargs`) stay as written.
  const held: string[] = [];
  const hold = (html: string) => `\uE000${held.push(html) - 1}\uE000`;
  const emphasis = withEmphasis ? applyEmphasis : (text: string) => text;
  const label = (text: string) => emphasis(escapeHtml(text));
  const link = (text: string, url: string) =>
    SAFE_LINK.test(url) ? hold(`<a href="${escapeAttribute(url)}">${label(text)}</a>`) : hold(`${label(text)} (${escapeHtml(url)})`);

  const text = source
    .replace(/\\([\\`*_{}[\]()#+\-.!~>|<])/g, (_m, char: string) => hold(escapeHtml(char)))
    .replace(/``(.+?)``|`([^`]+)`/g, (_m, double?: string, single?: string) => hold(`<code>${escapeHtml(double ?? single ?? '')}</code>`))
    .replace(/<((?:https?|mailto):[^>\s]+)>/gi, (_m, url: string) => hold(escapeHtml(url)))
    .replace(IMAGE, (_m, alt: string, url: string) => link(alt || url, url))
    .replace(LINK, (_m, text: string, url: string) => link(text, url))
    .replace(/\bhttps?:\/\/[^\s<>\uE000]*[^\s<>\uE000.,;:!?*_~)'"]/gi, (url) => hold(escapeHtml(url)));

  let html = emphasis(escapeHtml(text));
  // Link labels hold placeholders of their own, so restore until none is left.
  while (/\uE000\d+\uE000/.test(html)) html = html.replace(PLACEHOLDER, (_m, index: string) => held[Number(index)] ?? '');
  return html;
}

function applyEmphasis(text: string): string {
  return text
    .replace(/\*\*\*(?=\S)(.*?\S)\*\*\*/g, '<b><i>$1</i></b>')
    .replace(/\*\*(?=\S)(.*?\S)\*\*/g, '<b>$1</b>')
    .replace(/(^|[^\w])__(?=\S)(.*?\S)__(?!\w)/g, '$1<b>$2</b>')
    .replace(/~~(?=\S)(.*?\S)~~/g, '<s>$1</s>')
    .replace(/(^|[^\w*])\*(?=[^\s*])(.*?[^\s*])\*(?![\w*])/g, '$1<i>$2</i>')
    .replace(/(^|[^\w])_(?=[^\s_])(.*?[^\s_])_(?!\w)/g, '$1<i>$2</i>');
}

/** Every tag closed in the order it was opened: what Telegram's HTML parser insists on. */
export function isBalanced(html: string): boolean {
  const open: string[] = [];
  for (const match of html.matchAll(/<(\/?)([a-z-]+)[^>]*>/g)) {
    const [, closing, name] = match;
    if (!closing) open.push(name ?? '');
    else if (open.pop() !== name) return false;
  }
  return open.length === 0;
}
