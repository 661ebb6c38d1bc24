// Markdown from the agent, made readable where a platform shows text only (SMS, Signal): markers
// go, what they marked stays, and a link keeps its address. Pure.

export function markdownToPlainText(markdown: string): string {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let inFence = false;
  for (const line of lines) {
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) {
      out.push(line);
      continue;
    }
    out.push(plainLine(line));
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

function plainLine(line: string): string {
  return line
    .replace(/^\s{0,3}#{1,6}\s+/, '') // headings
    .replace(/^\s{0,3}>\s?/, '') // quotes
    .replace(/^(\s*)[*+-]\s+/, '$1- ') // bullets, one marker
    .replace(/^\s{0,3}([-*_])(\s*\1){2,}\s*$/, '') // rules
    .replace(/!\[([^\]]*)\]\(([^)\s]+)[^)]*\)/g, (_m, alt: string, url: string) => (alt ? `${alt} (${url})` : url))
    .replace(/\[([^\]]+)\]\(([^)\s]+)[^)]*\)/g, (_m, text: string, url: string) => (text === url ? url : `${text} (${url})`))
    .replace(/`([^`]+)`/g, '$1')
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/(^|[^\w*])([*_])(?=\S)(.+?)(?<=\S)\2(?![\w*])/g, '$1$3')
    .replace(/~~(?=\S)(.+?)(?<=\S)~~/g, '$1');
}
