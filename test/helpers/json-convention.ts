// The one JSON convention of every --json output and dashboard API answer (docs/cli.md): keys in
// snake_case, times as ISO 8601 strings in UTC with `Z`. What breaks it, by where in the document.
const SNAKE = /^[a-z0-9]+(?:_[a-z0-9]+)*$/;
/** Keys that hold a time, by their name: `created_at`, `time`, `expires`, … */
const TIME_KEY = /(^|_)(at|time|since|until|expires|created|updated|started|finished)$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
/** An ISO-looking time that is not in UTC with Z (an offset, or none). */
const ISO_OTHER = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?([+-]\d{2}:\d{2})?$/;

/** Maps whose keys are data (names, ids, env variables), not field names: their values are still walked. */
export type DataKeyed = (path: string) => boolean;

export function jsonConventionProblems(value: unknown, isDataKeyed: DataKeyed = () => false, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => jsonConventionProblems(item, isDataKeyed, `${path}[${i}]`));
  if (typeof value === 'string') return ISO_OTHER.test(value) ? [`${path}: time ${JSON.stringify(value)} is not UTC with Z`] : [];
  if (typeof value !== 'object' || value === null) return [];
  const dataKeyed = isDataKeyed(path);
  return Object.entries(value).flatMap(([key, child]) => {
    const at = `${path}.${key}`;
    const problems: string[] = [];
    if (!dataKeyed && !SNAKE.test(key)) problems.push(`${at}: key is not snake_case`);
    // A number or a string under a time's name is a time; a flag such as `updated: true` is not.
    const timeLike = typeof child === 'number' || typeof child === 'string';
    if (!dataKeyed && TIME_KEY.test(key) && timeLike && !(typeof child === 'string' && ISO_UTC.test(child))) problems.push(`${at}: time ${JSON.stringify(child)} is not ISO 8601 UTC`);
    return [...problems, ...jsonConventionProblems(child, isDataKeyed, at)];
  });
}
