// The files tools' limits, in one place: what the model may ask for, and what it is given back.

export const FILE_LIMITS = Object.freeze({
  /** read_file refuses larger files (the terminal's head/sed/grep read parts of them). */
  readMaxBytes: 10 * 1024 * 1024,
  readDefaultLines: 2_000,
  readMaxLines: 10_000,
  /** A longer line is cut (minified code, data on one line). */
  lineMaxChars: 2_000,
  /** The most text one call returns. */
  outputMaxBytes: 64 * 1024,
  listDefaultEntries: 200,
  listMaxEntries: 2_000,
  searchDefaultResults: 100,
  searchMaxResults: 1_000,
  /** search_files skips larger files. */
  searchFileMaxBytes: 2 * 1024 * 1024,
  searchLineMaxChars: 300,
  /** The whole search, matching included: a pathological pattern is stopped, not left to hang the service. */
  searchBudgetMs: 10_000,
});

/** Not descended into by recursive listings and searches (named explicitly as `path`, they are). */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set(['.git', 'node_modules']);
