// Named parameters (`@name`, as the SQLite modules write them) for node-postgres, which takes
// only positional ones (`$1`). Lets a query builder shared by both stores stay in one form.

/** `WHERE a = @a AND b < @a` with { a: 1 } → `WHERE a = $1 AND b < $1`, [1]. */
export function named(sql: string, params: Readonly<Record<string, unknown>>): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const positions = new Map<string, number>();
  const text = sql.replace(/@([A-Za-z_][A-Za-z0-9_]*)/g, (_match, name: string) => {
    if (!(name in params)) throw new Error(`no value for @${name}`);
    let position = positions.get(name);
    if (position === undefined) {
      values.push(params[name]);
      position = values.length;
      positions.set(name, position);
    }
    return `$${position}`;
  });
  return { text, values };
}
