// For the actions that take no input (Redeliver, Re-run, Specify, Decompose): none, or `{}`.
// Anything else is a client that meant something else (a field this API does not have), refused
// with 400 rather than ignored.
import { HttpError } from '../http-error.js';
import type { DashboardContext, RouteRequest } from './route.js';

export const NO_BODY_ERROR = 'this request takes no body (send none, or {})';

export async function noBody(context: DashboardContext, request: RouteRequest): Promise<void> {
  const { headers } = request.req;
  const length = headers['content-length'];
  if (headers['transfer-encoding'] === undefined && (length === undefined || length === '0')) return;
  const body = await context.readJson(request.req);
  if (typeof body !== 'object' || body === null || Array.isArray(body) || Object.keys(body).length > 0) {
    throw new HttpError(400, NO_BODY_ERROR);
  }
}
