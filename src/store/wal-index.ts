// How much of the WAL is in use, read from the WAL file itself (https://sqlite.org/walformat.html).
// The file's size says nothing: after a reset SQLite writes the WAL again from its start and only
// cuts the file back to `journal_size_limit`, so a file that once grew stays large while a few
// frames are in use.
//
// The WAL header (32 bytes, big-endian) holds the magic (0x377f0682 or 0x377f0683), the page size
// at 8 and the salts at 16 and 20. Each frame is a 24-byte header and one page; the frames written
// since the last reset carry the header's salts (at 8 and 12 of the frame header), and the frames
// left from before it carry older ones (salt-1 goes up at every reset). So the frames in use are
// the run of frames from the start whose salts match, found by a binary search.
//
// Not the wal-index in -shm, which holds the same figure: SQLite locks -shm with fcntl locks, and
// closing any descriptor of ours on it would drop every lock this process holds there. The WAL
// file is never locked. Self-contained on purpose: the accept writer's thread runs it from its
// source text.

export const WAL_HEADER_BYTES = 32;
export const WAL_FRAME_HEADER_BYTES = 24;

/**
 * The WAL bytes in use: its header plus the frames since the last reset. `fileBytes` is the file's
 * size; `readAt(offset)` reads 16 bytes of the file there (undefined past its end). 0 when the
 * file holds no valid header (an empty WAL). An estimate to decide a checkpoint on: read while
 * others write, it can be off until the next look, and frames not yet committed count.
 */
export function walBytesInUse(header: Uint8Array, fileBytes: number, readAt: (offset: number) => Uint8Array | undefined): number {
  if (header.length < 32) return 0;
  const view = new DataView(header.buffer, header.byteOffset, 32);
  const magic = view.getUint32(0, false);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return 0;
  const pageSize = view.getUint32(8, false);
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return 0;
  const salt1 = view.getUint32(16, false);
  const salt2 = view.getUint32(20, false);
  const frameBytes = 24 + pageSize;
  const matches = (index: number): boolean => {
    const frame = readAt(32 + index * frameBytes);
    if (frame === undefined || frame.length < 16) return false;
    const f = new DataView(frame.buffer, frame.byteOffset, 16);
    return f.getUint32(8, false) === salt1 && f.getUint32(12, false) === salt2;
  };
  // Frames [0, low) match and [high, whole frames) do not.
  let low = 0;
  let high = Math.max(0, Math.floor((fileBytes - 32) / frameBytes));
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (matches(middle)) low = middle + 1;
    else high = middle;
  }
  return low === 0 ? 32 : 32 + low * frameBytes;
}
