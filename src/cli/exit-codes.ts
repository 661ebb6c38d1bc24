// The one table from failure codes to process exit codes.
import type { ConfigErrorCode } from '../config/result.js';

export const EXIT = Object.freeze({ ok: 0, failure: 1, usage: 2 });

export type CliErrorCode = ConfigErrorCode | 'usage' | 'not_found' | 'exists' | 'invalid_skill';

const EXIT_BY_CODE: Readonly<Record<CliErrorCode, number>> = {
  usage: EXIT.usage,
  home_unusable: EXIT.usage,
  parse_error: EXIT.usage,
  not_a_mapping: EXIT.usage,
  not_scalar: EXIT.usage,
  invalid_key: EXIT.usage,
  invalid_value: EXIT.usage,
  not_found: EXIT.failure,
  exists: EXIT.failure,
  invalid_skill: EXIT.failure,
  lock_timeout: EXIT.failure,
  io_error: EXIT.failure,
};

export function exitCodeFor(code: CliErrorCode): number {
  return EXIT_BY_CODE[code];
}

/** A failure that ends a command: printed as one line, exits with the table's code. */
export class CliFailure extends Error {
  constructor(
    readonly code: CliErrorCode,
    message: string,
  ) {
    super(message);
  }
}
