// The per-request timeouts of model calls, from config (`network.*`, seconds).
import type { Config } from '../config/schema.js';
import type { Timeouts } from './wire/types.js';

export function timeoutsFromConfig(config: Pick<Readonly<Config>, 'network'>): Timeouts {
  const { connect_timeout, first_byte_timeout, idle_timeout } = config.network;
  return {
    connectMs: Math.round(connect_timeout * 1000),
    firstByteMs: Math.round(first_byte_timeout * 1000),
    idleMs: Math.round(idle_timeout * 1000),
  };
}
