// Token lifetimes arrive in three shapes: epoch seconds (number or numeric string), a date string
// (`az`'s local-time `expiresOn`, `azd`'s RFC 3339, legacy app platforms), or seconds from now.

export type ExpiryFields = {
  readonly epochSeconds?: string | number | undefined;
  readonly date?: string | undefined;
  readonly relativeSeconds?: string | number | undefined;
};

function finiteNumber(value: string | number | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** Epoch milliseconds, or undefined when none of the fields can be read. */
export function parseExpiry(fields: ExpiryFields, nowMs: number): number | undefined {
  const epoch = finiteNumber(fields.epochSeconds);
  if (epoch !== undefined) return epoch * 1000;
  // A non-numeric epoch field is a date string on legacy app platforms.
  const dateText = fields.date ?? (typeof fields.epochSeconds === 'string' ? fields.epochSeconds : undefined);
  if (dateText !== undefined) {
    const parsed = Date.parse(dateText);
    if (Number.isFinite(parsed)) return parsed;
  }
  const relative = finiteNumber(fields.relativeSeconds);
  return relative === undefined ? undefined : nowMs + relative * 1000;
}
