import { describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validate.js';
import { timeoutsFromConfig } from './timeouts.js';
import { DEFAULT_TIMEOUTS } from './wire/types.js';

describe('timeoutsFromConfig', () => {
  it('defaults to the built-in timeouts', () => {
    expect(timeoutsFromConfig(validateConfig({}).config)).toEqual(DEFAULT_TIMEOUTS);
  });

  it('reads seconds, decimals included', () => {
    const { config } = validateConfig({ network: { connect_timeout: 2.5, idle_timeout: 300 } });
    expect(timeoutsFromConfig(config)).toEqual({ connectMs: 2500, firstByteMs: 120_000, idleMs: 300_000 });
  });

  it('falls back to the default for a non-positive value', () => {
    const result = validateConfig({ network: { first_byte_timeout: 0 } });
    expect(result.problems.map((p) => p.path)).toEqual(['network.first_byte_timeout']);
    expect(timeoutsFromConfig(result.config).firstByteMs).toBe(120_000);
  });
});
