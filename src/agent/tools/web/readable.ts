// HTML to the readable part of a page as Markdown: linkedom builds a DOM, Readability (Firefox's
// reader view) keeps the article and drops navigation, ads and footers, turndown writes Markdown.
// The three libraries load on first use, so starting the CLI never pays for them.

export type ReadablePage = { readonly title: string | undefined; readonly markdown: string };

/** Elements that are never the content, for pages where Readability finds no article. */
const NOISE = 'script, style, noscript, template, nav, header, footer, aside, form, iframe, svg, [role="navigation"], [role="banner"], [role="contentinfo"], [aria-hidden="true"]';

// The few DOM members used here. linkedom's own types lean on the DOM lib, which this Node
// project does not load, so they would arrive as unresolved types.
type MiniElement = { remove(): void; setAttribute(name: string, value: string): void; readonly innerHTML: string };
type MiniDocument = {
  readonly title: string | undefined;
  readonly head: { prepend(node: MiniElement): void } | null;
  readonly body: MiniElement | null;
  querySelector(selector: string): MiniElement | null;
  querySelectorAll(selector: string): Iterable<MiniElement>;
  createElement(tag: string): MiniElement;
};

export async function htmlToMarkdown(html: string, pageUrl: string): Promise<ReadablePage> {
  const [linkedom, readability, { default: TurndownService }] = await Promise.all([
    import('linkedom'),
    import('@mozilla/readability'),
    import('turndown'),
  ]);
  // Readability is CommonJS: Node gives its exports as `default` (and, by static analysis, as
  // names), the esbuild bundle as `default` only.
  const { Readability } = (readability as unknown as { default: typeof readability }).default;
  const parse = (text: string) => (linkedom.parseHTML as unknown as (t: string) => { document: MiniDocument })(text).document;
  // Readability rewrites relative links against the document's base; linkedom has no URL of its
  // own, so the page's is given as a <base> (unless the page has one).
  const document = parse(html);
  if (!document.querySelector('base[href]') && document.head) {
    const base = document.createElement('base');
    base.setAttribute('href', pageUrl);
    document.head.prepend(base);
  }
  const fallbackTitle = document.title?.trim() || undefined;
  // Readability mutates the document it reads; the fallback parses a fresh copy.
  const article = new Readability(document, { charThreshold: 200 }).parse();
  let content = article?.content ?? '';
  if (!article?.textContent?.trim()) {
    const fresh = parse(html);
    for (const node of [...fresh.querySelectorAll(NOISE)]) node.remove();
    content = fresh.body?.innerHTML ?? '';
  }
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  turndown.remove(['script', 'style', 'noscript']);
  const markdown = turndown.turndown(content).trim();
  return { title: article?.title?.trim() || fallbackTitle, markdown };
}
