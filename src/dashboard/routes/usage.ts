// GET /api/usage: what the model calls cost.
// - With `by` (model, task, day or source), optionally `since` and `until`: exactly the rows
//   `iris usage --by … --json` prints for the same window (one function behind both), for the
//   Usage page.
// - Without `by`: `{since, models}`, by model with each model's context length and capabilities,
//   for the Models page's cards.
import { findCatalogModel, contextLengthFor } from '../../providers/catalog.js';
import { parseUsageQuery, usageReport } from '../../store/usage-report.js';
import { usageTotalsJson } from '../../store/usage-json.js';
import { HttpError } from '../http-error.js';
import type { RouteArea } from './route.js';

/** A query parameter's value; an empty one counts as absent (a form's blank field). */
function param(url: URL, name: string): string | undefined {
  const value = url.searchParams.get(name);
  return value === null || value === '' ? undefined : value;
}

export const usageRoutes: RouteArea = (context) => [
  {
    method: 'GET',
    path: '/api/usage',
    run: async ({ url }) => {
      const by = param(url, 'by');
      const parsed = parseUsageQuery({ since: param(url, 'since'), until: param(url, 'until'), by }, Date.now(), 'params');
      if (!parsed.ok) throw new HttpError(400, parsed.message);
      const opened = await context.existingStore();
      if (by !== undefined) return usageReport(opened, parsed.query);
      const { since } = parsed.query;
      const rows = opened ? await opened.usageSummary({ ...parsed.query, by: 'model' }) : [];
      return {
        since: since === undefined ? null : new Date(since).toISOString(),
        models: rows.map((row) => {
          const provider = row.provider ?? '';
          const model = row.model ?? '';
          return {
            provider,
            model,
            ...usageTotalsJson(row),
            tasks: row.served,
            context_length: contextLengthFor(provider, model),
            capabilities: [...(findCatalogModel(provider, model)?.capabilities ?? [])],
          };
        }),
      };
    },
  },
];
