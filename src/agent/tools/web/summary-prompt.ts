// The request the `web_extract` slot gets for a long page: the page text, the question (or a
// general summary), and an instruction to answer from the page only.

/** Above this many characters, a page is summarised by the slot rather than returned whole. */
export const SUMMARY_THRESHOLD_CHARS = 4_000;

/** The most page text sent to the slot: a 5 MB page would overflow any model's context. */
export const SUMMARY_INPUT_MAX_CHARS = 100_000;

export function buildSummaryPrompt(url: string, text: string, question: string | undefined): string {
  const cut = text.length > SUMMARY_INPUT_MAX_CHARS;
  const page = cut ? `${text.slice(0, SUMMARY_INPUT_MAX_CHARS)}\n\n[page cut at ${SUMMARY_INPUT_MAX_CHARS} characters]` : text;
  const task = question?.trim()
    ? `Extract from the page below what answers this question, keeping facts, figures, names and links exactly as written: ${question.trim()}\nIf the page does not answer it, say so and summarise what the page is about.`
    : 'Summarise the page below: its main points, keeping facts, figures, names and links exactly as written.';
  return `${task}\nUse only the page; answer in Markdown, in at most about 600 words.\n\nPage: ${url}\n<page>\n${page}\n</page>`;
}
