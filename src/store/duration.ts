// A span of time as the CLI takes it: `<n>s|m|h|d|w` (`90s`, `30m`, `12h`, `30d`, `2w`), a whole
// number of up to 6 digits. Used by `iris sessions prune --older-than` and `iris usage --since`.

export type Duration = { readonly ok: true; readonly ms: number; readonly unit: DurationUnit } | { readonly ok: false };

export const DURATION_UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

export type DurationUnit = keyof typeof DURATION_UNIT_MS;

const SPAN = /^(\d{1,6})([smhdw])$/;

export function parseDuration(text: string): Duration {
  const match = SPAN.exec(text.trim());
  if (!match) return { ok: false };
  const unit = match[2] as DurationUnit;
  return { ok: true, ms: Number(match[1]) * DURATION_UNIT_MS[unit], unit };
}
