// The disk under the Iris home: low space (under 5% or 500 MB free) warns before it fills, because
// a full disk refuses every webhook (503) and drops log lines. Pure: the numbers come in.
import { describeDiskSpace, LOW_DISK, type DiskSpace } from '../../domain/disk-space.js';
import { shellWord, warn, type CheckResult } from '../types.js';

const ID = 'disk';

/**
 * A line only when there is something to say (space is low); undefined with room, or when the
 * file system could not say (no home yet).
 */
export function checkDiskSpace(dir: string, space: DiskSpace | undefined): CheckResult | undefined {
  if (space === undefined || !space.low) return undefined;
  const found = `${describeDiskSpace(space)} under ${dir}`;
  return warn(
    ID,
    'disk space',
    `low: ${found} (under ${LOW_DISK.fraction * 100}% or ${LOW_DISK.bytes / 1024 / 1024} MB)`,
    `free space on that disk (iris store prune; old logs under ${shellWord(`${dir}/logs`)}), or move IRIS_HOME to a larger one: when it is full, webhooks get 503 and log lines are dropped`,
  );
}
