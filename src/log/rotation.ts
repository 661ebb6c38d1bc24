// Size-based rotation of a log file, as logrotate does it: gateway.log → gateway.log.1 → … →
// gateway.log.<keep>, the oldest dropped. The logger then reopens its path (pino's own
// `destination.reopen()`, the hook pino documents for rotation), so no line is written to a file
// that was moved away for longer than one check.
import { renameSync, rmSync, statSync } from 'node:fs';

export type Rotation = {
  /** Rotate once the file is at least this big. */
  readonly maxBytes: number;
  /** Rotated files kept beside the live one. */
  readonly keep: number;
};

export const DEFAULT_ROTATION: Rotation = { maxBytes: 10 * 1024 * 1024, keep: 5 };

/** The config's `logging` section as a Rotation. */
export function rotationOf(logging: { readonly max_size_mb: number; readonly keep: number }): Rotation {
  return { maxBytes: Math.round(logging.max_size_mb * 1024 * 1024), keep: logging.keep };
}

export type Rename = { readonly from: string; readonly to: string };

/** The renames that rotate `file`, in the order they must run (oldest first, so none is overwritten). Pure. */
export function rotationSteps(file: string, keep: number): { readonly remove: string; readonly renames: readonly Rename[] } {
  const numbered = (n: number) => `${file}.${n}`;
  const renames: Rename[] = [];
  for (let n = keep - 1; n >= 1; n--) renames.push({ from: numbered(n), to: numbered(n + 1) });
  renames.push({ from: file, to: numbered(1) });
  return { remove: numbered(keep), renames };
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** Rotates `file` when it has reached the limit; true when it did (the caller reopens it). */
export function rotateIfLarge(file: string, rotation: Rotation): boolean {
  if (sizeOf(file) < rotation.maxBytes) return false;
  const steps = rotationSteps(file, rotation.keep);
  rmSync(steps.remove, { force: true });
  for (const { from, to } of steps.renames) {
    try {
      renameSync(from, to);
    } catch (err) {
      // A gap in the numbered files (an operator deleted one) is not a failure.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return true;
}
