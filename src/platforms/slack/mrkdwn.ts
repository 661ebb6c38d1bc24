// The agent's Markdown as Slack mrkdwn. Pure.
//
// Slack's markup (https://api.slack.com/reference/surfaces/formatting): *bold*, _italic_,
// ~strike~, `code`, ``` blocks ```, <url|text> links, and &, <, > escaped as &amp; &lt; &gt;
// (everywhere, code included). Headings become bold lines; lists and quotes read the same.
export function markdownToMrkdwn(markdown: string): string {
  const parts = markdown.split(/(```[\s\S]*?(?:```|$))/);
  return parts.map((part, index) => (index % 2 === 1 ? codeBlock(part) : inline(part))).join('');
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A fenced block: the language tag is dropped (Slack shows it as text), the body kept. */
function codeBlock(block: string): string {
  const body = block.replace(/^```[^\n]*\n?/, '').replace(/```$/, '');
  return `\`\`\`${escape(body.replace(/\n$/, ''))}\`\`\``;
}

const BOLD = '\uE000';

function inline(text: string): string {
  const pieces = text.split(/(`[^`\n]+`)/);
  return pieces.map((piece, index) => (index % 2 === 1 ? escape(piece) : prose(piece))).join('');
}

function prose(text: string): string {
  let out = text.replace(/\r\n/g, '\n');
  // Links first, their parts escaped on their own; the <> Slack needs are added after escaping.
  const links: string[] = [];
  out = out.replace(/\[([^\]\n]+)\]\((\S+?)\)/g, (_match, label: string, url: string) => {
    links.push(`<${escape(url).replace(/\|/g, '%7C')}|${escape(label)}>`);
    return `\uE001${links.length - 1}\uE001`;
  });
  out = escape(out);
  // A quote keeps its > (Slack reads a leading > as a quote, an escaped one as text).
  out = out.replace(/^([ \t]*)&gt;/gm, '$1>');
  out = out.replace(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm, `${BOLD}$1${BOLD}`);
  out = out.replace(/\*\*(?=\S)([\s\S]*?\S)\*\*/g, `${BOLD}$1${BOLD}`);
  out = out.replace(/__(?=\S)([\s\S]*?\S)__/g, `${BOLD}$1${BOLD}`);
  out = out.replace(/(^|[^\w*])\*(?=\S)([^*\n]*?\S)\*(?![\w*])/g, '$1_$2_');
  out = out.replace(/~~(?=\S)([\s\S]*?\S)~~/g, '~$1~');
  out = out.replace(/^([ \t]*)[-*+][ \t]+/gm, '$1• ');
  out = out.split(BOLD).join('*');
  return out.replace(/\uE001(\d+)\uE001/g, (_match, index: string) => links[Number(index)] ?? '');
}
