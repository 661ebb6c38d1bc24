// How web_extract's pages read to the model: one block per URL, in the order asked, each naming
// its source and saying whether the text is the page or the web_extract model's summary of it.

export type PageOutcome =
  | {
      readonly url: string;
      readonly ok: true;
      /** Set when redirects led elsewhere. */
      readonly finalUrl?: string;
      readonly title?: string;
      readonly text: string;
      /** How the text came to be: the page itself, a summary of it, or its start. */
      readonly form: { readonly kind: 'whole' } | { readonly kind: 'summary'; readonly pageChars: number; readonly question?: string } | { readonly kind: 'cut'; readonly pageChars: number; readonly why: string };
    }
  | { readonly url: string; readonly ok: false; readonly error: string };

const chars = (n: number) => n.toLocaleString('en-US');

export function formatPage(outcome: PageOutcome): string {
  const lines = [`Source: ${outcome.url}`];
  if (!outcome.ok) {
    lines.push(`Error: ${outcome.error}`);
    return lines.join('\n');
  }
  if (outcome.finalUrl && outcome.finalUrl !== outcome.url) lines.push(`Redirected to: ${outcome.finalUrl}`);
  if (outcome.title) lines.push(`Title: ${outcome.title}`);
  const { form } = outcome;
  if (form.kind === 'summary') {
    lines.push(`Summarised by the web_extract model ${form.question ? 'towards the question' : '(no question given)'} from ${chars(form.pageChars)} characters of page text.`);
  } else if (form.kind === 'cut') {
    lines.push(`Only the first ${chars(outcome.text.length)} of ${chars(form.pageChars)} characters: ${form.why}.`);
  }
  lines.push('', outcome.text);
  return lines.join('\n');
}

/** The whole tool result: an error only when no page could be read. */
export function formatOutcomes(outcomes: readonly PageOutcome[]): { ok: boolean; content: string } {
  return { ok: outcomes.some((o) => o.ok), content: outcomes.map(formatPage).join('\n\n---\n\n') };
}
