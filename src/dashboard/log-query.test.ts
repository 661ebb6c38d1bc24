import { describe, expect, it } from 'vitest';
import { parseLogQuery } from './log-query.js';

const parse = (query: string) => parseLogQuery(new URLSearchParams(query));

describe('parseLogQuery', () => {
  it('defaults to the newest 200 lines of the gateway log, unfiltered', () => {
    expect(parse('')).toEqual({ ok: true, query: { log: 'gateway', filter: {}, limit: 200 } });
  });

  it('reads every filter', () => {
    expect(parse('log=audit&level=warn&q=sign_in&route=pr-review&platform=telegram&limit=50')).toEqual({
      ok: true,
      query: { log: 'audit', filter: { minLevel: 'warn', text: 'sign_in', route: 'pr-review', platform: 'telegram' }, limit: 50 },
    });
  });

  it('treats empty filters as none', () => {
    expect(parse('log=agent&level=&q=&route=&platform=')).toEqual({ ok: true, query: { log: 'agent', filter: {}, limit: 200 } });
  });

  it.each([
    ['log=system', 'log must be one of gateway, agent, audit (got "system")'],
    ['level=loud', 'level must be one of trace, debug, info, warn, error, fatal (got "loud")'],
    ['limit=0', 'limit must be a whole number from 1 to 1000 (got "0")'],
    ['limit=1001', 'limit must be a whole number from 1 to 1000 (got "1001")'],
    ['limit=2.5', 'limit must be a whole number from 1 to 1000 (got "2.5")'],
    ['limit=-3', 'limit must be a whole number from 1 to 1000 (got "-3")'],
    ['limit=', 'limit must be a whole number from 1 to 1000 (got "")'],
    ['route=../x', 'route name "../x" must match ^[a-z0-9][a-z0-9._-]{0,63}$ (lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64) and cannot contain ".."'],
    ['platform=Tele%20gram', 'platform must be a platform name such as telegram or slack (got "Tele gram")'],
    ['sort=asc', 'unknown parameter "sort" (known: log, level, q, route, platform, limit)'],
    ['log=agent&log=audit', 'parameter "log" given more than once'],
    [`q=${'a'.repeat(201)}`, 'q is longer than 200 characters'],
  ])('refuses %s', (query, error) => {
    expect(parse(query)).toEqual({ ok: false, error });
  });
});
