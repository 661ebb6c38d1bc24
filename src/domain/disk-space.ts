// How much room the disk under the Iris home has, and whether that is low: under 5% or under
// 500 MB free (whichever comes first warns). Pure: the file-system numbers come in as values.

export const LOW_DISK = Object.freeze({ fraction: 0.05, bytes: 500 * 1024 * 1024 });

export type DiskSpace = { readonly freeBytes: number; readonly totalBytes: number; readonly low: boolean };

/** From statfs's numbers: blocks available to this user, blocks in all, the block size. */
export function diskSpaceOf(stat: { readonly bavail: number; readonly blocks: number; readonly bsize: number }): DiskSpace {
  const freeBytes = stat.bavail * stat.bsize;
  const totalBytes = stat.blocks * stat.bsize;
  const low = freeBytes < LOW_DISK.bytes || (totalBytes > 0 && freeBytes / totalBytes < LOW_DISK.fraction);
  return { freeBytes, totalBytes, low };
}

/** `1.2 GB free of 20 GB (6%)`. */
export function describeDiskSpace(space: DiskSpace): string {
  const mb = (bytes: number) => (bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GB` : `${Math.round(bytes / 1024 ** 2)} MB`);
  const percent = space.totalBytes > 0 ? Math.floor((space.freeBytes / space.totalBytes) * 100) : 0;
  return `${mb(space.freeBytes)} free of ${mb(space.totalBytes)} (${percent}%)`;
}
