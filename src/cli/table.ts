// A plain text table for terminal output: columns padded to their widest cell, two spaces apart,
// no trailing blanks. Counts line up on their last digit (`right`), words on their first.

export function formatTable(header: readonly string[], rows: readonly (readonly string[])[], right: ReadonlySet<number> = new Set()): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((line) => (line[column] ?? '').length)));
  const align = (line: readonly string[]) =>
    line
      .map((cell, column) => (right.has(column) ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [align(header), ...rows.map(align)].join('\n');
}
