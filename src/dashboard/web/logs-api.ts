// The Logs page's call, on the one API client (api.ts: token, failure messages): GET /api/logs
// with the page's filters, checked against the shape routes/logs.ts answers with.
import * as z from 'zod/mini';
import type { ApiResult, DashboardApi } from './api.js';
import { logsPath, type LogFilters } from './logs-view.js';

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

export const LogEntrySchema = z.object({
  source: z.enum(['gateway', 'agent', 'audit']),
  time: z.nullable(z.string()),
  level: z.enum(LEVELS),
  what: z.string(),
  fields: z.record(z.string(), z.unknown()),
});
export const LogsSchema = z.object({ log: z.string(), entries: z.array(LogEntrySchema), scan_limited: z.boolean() });

export type LogRow = z.infer<typeof LogEntrySchema>;
export type Logs = z.infer<typeof LogsSchema>;

export function fetchLogs(api: DashboardApi, filters: LogFilters): Promise<ApiResult<Logs>> {
  return api.request(logsPath(filters), LogsSchema);
}
