// How much of the WAL is in use, read from the wal-index header at the start of the -shm file
// (https://sqlite.org/walformat.html, "The WAL-Index Header"). The WAL file's size says nothing:
// after a reset SQLite writes the WAL again from its start and only cuts the file back to
// `journal_size_limit`, so a file that once grew stays large while a few frames are in use.
//
// The header is 48 bytes, written twice (offsets 0 and 48) in the host's byte order:
// iVersion u32 @0, isInit u8 @12, szPage u16 @14 (1 means 65536), mxFrame u32 @16 (the last
// valid frame). A WAL of n frames is its 32-byte header plus n × (24 + page size).
//
// Self-contained on purpose: the accept writer's thread runs it from its source text.

/** Bytes the header needs: both copies. */
export const WAL_INDEX_HEADER_BYTES = 96;

/**
 * The WAL bytes the last commit left in use, or undefined when the header cannot be trusted: not
 * initialised yet, or its two copies differ (a writer is between its two writes of it).
 */
export function walBytesInUse(shm: Uint8Array, littleEndian: boolean): number | undefined {
  if (shm.length < 96) return undefined;
  for (let i = 0; i < 48; i++) if (shm[i] !== shm[48 + i]) return undefined;
  if (shm[12] === 0) return undefined;
  const view = new DataView(shm.buffer, shm.byteOffset, 48);
  const pageField = view.getUint16(14, littleEndian);
  const pageSize = pageField === 1 ? 65536 : pageField;
  if (pageSize < 512) return undefined;
  const frames = view.getUint32(16, littleEndian);
  return frames === 0 ? 0 : 32 + frames * (24 + pageSize);
}
