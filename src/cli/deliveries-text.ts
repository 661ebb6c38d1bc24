// `iris webhook deliveries` as text: two lines an event (what arrived and its state; then its
// session and the first line of its answer), and `--show <id>`: the whole answer and its outcome.
// Pure: views in, text out.
import type { DeliveryDetail, DeliveryRow, FindingView, ReviewView } from '../webhook/delivery-view.js';

const answerText = (answer: string | null) => (answer === null ? undefined : answer === '' ? '(empty answer)' : answer);

export function deliveryRowText(row: DeliveryRow): string {
  const head = `#${row.id} ${row.received_at} ${row.route} ${row.event} ${row.delivery_id} ${row.state}${row.reason ? ` (${row.reason})` : ''}`;
  const parts = [row.session ? `session ${row.session}` : undefined, answerText(row.answer_first_line)].filter((part) => part !== undefined);
  return parts.length > 0 ? `${head}\n    ${parts.join(' · ')}` : head;
}

export function deliveryDetailText(detail: DeliveryDetail): string {
  const fields: Array<[string, string]> = [
    ['received', detail.received_at],
    ['updated', detail.updated_at],
    ['state', detail.state],
    ['outcome', detail.outcome],
    ['attempts', `${detail.run_attempts} run, ${detail.delivery_attempts} delivery`],
    ['deliver', detail.deliver ?? '(the stored route is unreadable)'],
    ['session', detail.session ? `${detail.session} (iris sessions show ${detail.session})` : 'none yet'],
  ];
  const width = Math.max(...fields.map(([label]) => label.length)) + 2;
  const lines = [`#${detail.id} ${detail.route} · ${detail.event} · delivery ${detail.delivery_id}`, ...fields.map(([label, value]) => `${label.padEnd(width)}${value}`), ''];
  lines.push(detail.answer === null ? '(no answer yet)' : (answerText(detail.answer) ?? ''));
  if (detail.review) lines.push('', ...reviewText(detail.review, detail.state));
  return lines.join('\n');
}

const findingLine = (f: FindingView, extra = '') => `  ${f.path}:${f.line} ${f.severity} ${f.title}${extra}`;

/**
 * A review's findings by where they went; a group with none is left out. The lists are the run's
 * plan: until the event is delivered, what is to be posted or marked says it has not been yet.
 */
export function reviewText(review: ReviewView, state: string): string[] {
  if (review.unreadable) return ['findings: none (the answer could not be read as findings)'];
  const delivered = state === 'delivered';
  const notYet = ` (not yet: the event is ${state})`;
  const groups: Array<[string, string[]]> = [
    [delivered ? 'findings posted on their lines' : `findings to post on their lines${notYet}`, review.inline.map((f) => findingLine(f))],
    ['findings in the summary (not on a changed line)', review.in_summary.map((f) => findingLine(f))],
    ['findings skipped as repeats', review.repeats.map((f) => findingLine(f, ` (${f.state})`))],
    [delivered ? 'findings marked outdated' : `findings to mark outdated${notYet}`, review.outdated.map((f) => findingLine(f, f.note === undefined ? '' : ` (${f.note})`))],
  ];
  const shown = groups.filter(([, items]) => items.length > 0).flatMap(([title, items]) => [`${title}:`, ...items]);
  return shown.length > 0 ? shown : ['findings: none'];
}
