// How the fake Telegram reads `parse_mode: HTML` text: the tags Telegram knows, closed in order,
// and only the entities it knows; anything else is the 400 "can't parse entities" a real bot
// gets. What is left after the tags is the visible text, the part the 4096 limit counts.

import { Buffer } from 'node:buffer';

const KNOWN_TAGS = new Set(['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'span', 'tg-spoiler', 'a', 'code', 'pre', 'blockquote', 'tg-emoji']);
const NAMED_ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"' };

export type HtmlReading = { readonly ok: true; readonly visible: string } | { readonly ok: false; readonly description: string };

export function readTelegramHtml(html: string): HtmlReading {
  const refuse = (why: string): HtmlReading => ({ ok: false, description: `Bad Request: can't parse entities: ${why}` });
  const open: string[] = [];
  let visible = '';
  let index = 0;
  while (index < html.length) {
    const char = html[index] ?? '';
    const offset = Buffer.byteLength(html.slice(0, index));
    if (char === '<') {
      const tag = /^<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[a-z-]+(?:="[^"]*"|='[^']*')?)*)\s*>/.exec(html.slice(index));
      if (!tag) return refuse(`Unclosed start tag at byte offset ${offset}`);
      const [whole, closing, rawName] = tag;
      const name = (rawName ?? '').toLowerCase();
      if (!KNOWN_TAGS.has(name)) return refuse(`Unsupported start tag "${name}" at byte offset ${offset}`);
      if (closing) {
        const expected = open.pop();
        if (expected !== name) {
          return refuse(`Unmatched end tag at byte offset ${offset}, expected "</${expected ?? ''}>", found "</${name}>"`);
        }
      } else {
        open.push(name);
      }
      index += whole.length;
      continue;
    }
    if (char === '>') return refuse(`Unexpected end tag at byte offset ${offset}`);
    if (char === '&') {
      const entity = /^&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/.exec(html.slice(index));
      const name = entity?.[1];
      if (!entity || name === undefined) return refuse(`Can't find end of the entity starting at byte offset ${offset}`);
      if (name.startsWith('#x')) visible += String.fromCodePoint(parseInt(name.slice(2), 16));
      else if (name.startsWith('#')) visible += String.fromCodePoint(parseInt(name.slice(1), 10));
      else if (NAMED_ENTITIES[name] !== undefined) visible += NAMED_ENTITIES[name];
      else return refuse(`Unsupported HTML entity "&${name};" at byte offset ${offset}`);
      index += entity[0].length;
      continue;
    }
    visible += char;
    index += 1;
  }
  const unclosed = open.pop();
  if (unclosed !== undefined) return refuse(`Can't find end tag corresponding to start tag "${unclosed}"`);
  return { ok: true, visible };
}
