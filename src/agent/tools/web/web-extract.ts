// web_extract: reads up to five web pages and gives the model their readable text, summarised by
// the `web_extract` slot when long. The network and HTML libraries load on the first call, so
// merely building the toolset (every chat start) costs nothing.
import type { TaskRequest } from '../../../routing/call-model.js';
import * as z from 'zod/mini';
import { STRICT_GUARD, type FetchGuard } from '../../../net/fetch-guard.js';
import type { Fetched, GuardedClient } from '../../../net/guarded-fetch.js';
import { defineTool } from '../define-tool.js';
import type { Tool } from '../types.js';
import { classifyContentType, decodeText, sniffHtmlCharset } from './content-type.js';
import { formatOutcomes, type PageOutcome } from './format-result.js';
import { describePageFailure } from './page-failure.js';
import { buildSummaryPrompt, SUMMARY_THRESHOLD_CHARS } from './summary-prompt.js';

export const WEB_LIMITS = Object.freeze({
  maxUrls: 5,
  /** The whole page: connecting, redirects, headers and body. */
  timeoutMs: 30_000,
  maxBytes: 5 * 1024 * 1024,
  /** A summary longer than this is cut (a model that ignores "about 600 words"). */
  maxSummaryChars: 8_000,
});

export type SummaryResult = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: string };

/** One call to the `web_extract` slot with a prompt; the runtime wires it to callModel. */
export type Summarize = (prompt: string, signal?: AbortSignal) => Promise<SummaryResult>;

/** The summary request the `web_extract` slot gets. */
export function summaryRequest(prompt: string, signal?: AbortSignal): TaskRequest {
  return { messages: [{ role: 'user', content: prompt }], maxOutputTokens: 1500, ...(signal ? { signal } : {}) };
}

export type WebExtractOptions = {
  /** Where pages may be fetched from and through which proxy (tools.web, HTTP(S)_PROXY). Default: nothing private, no proxy. */
  readonly guard?: FetchGuard;
  /** Absent: long pages are cut at the threshold instead of summarised. */
  readonly summarize?: Summarize;
  readonly timeoutMs?: number;
  readonly maxBytes?: number;
};

const args = z.strictObject({
  urls: z.array(z.string().check(z.minLength(1))).check(
    z.minLength(1),
    z.maxLength(WEB_LIMITS.maxUrls),
    z.describe(`1 to ${WEB_LIMITS.maxUrls} http(s) URLs to read.`),
  ),
  question: z.optional(
    z.string().check(z.describe('What you want to know from the pages; long pages are summarised towards it.')),
  ),
});

export function createWebExtractTool(options: WebExtractOptions = {}): Tool {
  return defineTool({
    name: 'web_extract',
    description:
      `Read up to ${WEB_LIMITS.maxUrls} web pages (http/https) and return their readable text as Markdown, without ` +
      `navigation or ads. Plain-text and JSON pages come back as they are. Pages over ${SUMMARY_THRESHOLD_CHARS.toLocaleString('en-US')} ` +
      `characters are summarised towards the question. Each result names its source URL; a page that fails ` +
      `(HTTP error, timeout, not text, over ${WEB_LIMITS.maxBytes / (1024 * 1024)} MB, refused address) says why.`,
    args,
    readOnly: true,
    async run({ urls, question }, context) {
      const { openGuardedClient } = await import('../../../net/guarded-fetch.js');
      const client = openGuardedClient(options.guard ?? STRICT_GUARD);
      const limits = { timeoutMs: options.timeoutMs ?? WEB_LIMITS.timeoutMs, maxBytes: options.maxBytes ?? WEB_LIMITS.maxBytes };
      try {
        // Through the session when there is one, so the summary's usage is the session's.
        const sideJob = context.sideJob;
        const summarize: Summarize | undefined = sideJob ? (prompt, signal) => sideJob('web_extract', summaryRequest(prompt, signal)) : options.summarize;
        const outcomes = await Promise.all(urls.map((url) => extractOne(client, limits, url, question, summarize, context.signal)));
        return formatOutcomes(outcomes);
      } finally {
        await client.close();
      }
    },
  });
}

type Limits = { readonly timeoutMs: number; readonly maxBytes: number };

const PAGE_HEADERS = Object.freeze({
  'user-agent': 'Mozilla/5.0 (compatible; Iris web_extract)',
  accept: 'text/html, text/plain, application/json;q=0.9, */*;q=0.5',
});

async function extractOne(client: GuardedClient, limits: Limits, url: string, question: string | undefined, summarize: Summarize | undefined, signal?: AbortSignal): Promise<PageOutcome> {
  const fetched = await client.get(url, { ...limits, headers: PAGE_HEADERS, ...(signal ? { signal } : {}) });
  if (!fetched.ok) return { url, ok: false, error: describePageFailure(fetched.failure, limits) };
  const readable = await readableText(fetched.response);
  if (!readable.ok) return { url, ok: false, error: readable.error };
  const { text, title } = readable;
  const finalUrl = fetched.response.url;
  const base = { url, ok: true as const, ...(finalUrl !== url ? { finalUrl } : {}), ...(title ? { title } : {}) };
  if (text.length <= SUMMARY_THRESHOLD_CHARS) return { ...base, text, form: { kind: 'whole' } };
  const start = text.slice(0, SUMMARY_THRESHOLD_CHARS);
  if (!summarize) return { ...base, text: start, form: { kind: 'cut', pageChars: text.length, why: 'no summariser is available' } };
  const summary = await summarize(buildSummaryPrompt(finalUrl, text, question), signal);
  if (!summary.ok || !summary.text.trim()) {
    const why = summary.ok ? 'the web_extract model returned nothing' : `the web_extract model failed (${summary.error})`;
    return { ...base, text: start, form: { kind: 'cut', pageChars: text.length, why } };
  }
  return {
    ...base,
    text: summary.text.trim().slice(0, WEB_LIMITS.maxSummaryChars),
    form: { kind: 'summary', pageChars: text.length, ...(question?.trim() ? { question } : {}) },
  };
}

type Text = { readonly ok: true; readonly text: string; readonly title?: string } | { readonly ok: false; readonly error: string };

async function readableText(page: Fetched): Promise<Text> {
  const kind = classifyContentType(page.contentType);
  if (kind.kind === 'other') return { ok: false, error: `not text: the page is ${kind.mediaType}` };
  const charset = kind.kind === 'html' && !kind.declared ? (sniffHtmlCharset(page.body) ?? kind.charset) : kind.charset;
  const decoded = decodeText(page.body, charset);
  if (kind.kind === 'text') {
    return decoded.trim() ? { ok: true, text: decoded.trim() } : { ok: false, error: 'the page is empty' };
  }
  const { htmlToMarkdown } = await import('./readable.js');
  const { markdown, title } = await htmlToMarkdown(decoded, page.url);
  if (!markdown) return { ok: false, error: 'no readable text on the page' };
  return { ok: true, text: markdown, ...(title ? { title } : {}) };
}
