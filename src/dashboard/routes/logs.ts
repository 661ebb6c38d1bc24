// The Logs page's API: GET /api/logs reads one log (gateway, agent or audit) newest first through
// the library `iris logs` reads with (src/log/read-lines.ts), filtered by level, text, route and
// platform. Every line is redacted again on its way out (log-lines.ts), whatever wrote it.
import { logEntryJson } from '../../log/log-lines.js';
import { readNewestEntries } from '../../log/read-lines.js';
import { HttpError } from '../http-error.js';
import { parseLogQuery } from '../log-query.js';
import type { RouteArea } from './route.js';

export const logRoutes: RouteArea = (context) => [
  {
    method: 'GET',
    path: '/api/logs',
    run: async ({ url }) => {
      const parsed = parseLogQuery(url.searchParams);
      if (!parsed.ok) throw new HttpError(400, parsed.error);
      const { log, filter, limit } = parsed.query;
      const found = await readNewestEntries(context.paths.logsDir, log, filter, limit);
      return { log, entries: found.entries.map(logEntryJson), scan_limited: found.scanLimited };
    },
  },
];
