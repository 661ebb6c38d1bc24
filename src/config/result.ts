// Expected failures of the config layer, as values. The CLI maps each code to an exit code in
// one table (src/cli/exit-codes.ts); servers map them to HTTP statuses.

export type ConfigErrorCode =
  | 'home_unusable'
  | 'parse_error'
  | 'not_a_mapping'
  | 'not_scalar'
  | 'invalid_key'
  | 'invalid_value'
  | 'lock_timeout'
  | 'io_error';

export type ConfigError = { readonly code: ConfigErrorCode; readonly message: string };

export type Result<T, E = ConfigError> =
  | ({ readonly ok: true } & T)
  | { readonly ok: false; readonly error: E };

export function fail(code: ConfigErrorCode, message: string): { ok: false; error: ConfigError } {
  return { ok: false, error: { code, message } };
}

export function errnoMessage(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e?.code ? `${e.code}${e.message ? `: ${e.message.replace(/^\w+: /, '')}` : ''}` : String(err);
}
