// A page that could not be fetched, in the words web_extract's result gives the model.
import { STATUS_CODES } from 'node:http';
import type { FetchFailure } from '../../../net/guarded-fetch.js';

export function describePageFailure(failure: FetchFailure, limits: { readonly timeoutMs: number; readonly maxBytes: number }): string {
  switch (failure.code) {
    case 'invalid_url':
      return 'not a valid URL';
    case 'not_followed':
    case 'refused':
      return failure.message;
    case 'status': {
      const reason = STATUS_CODES[failure.status];
      return `HTTP ${failure.status}${reason ? ` ${reason}` : ''}`;
    }
    case 'too_large':
      return `the page is larger than ${formatBytes(limits.maxBytes)} (reading stopped at the cap)`;
    case 'encoding':
      return `unsupported content encoding "${failure.encoding}"`;
    case 'timeout':
      return `timed out: no complete page within ${formatSeconds(limits.timeoutMs)}`;
    case 'cancelled':
      return 'cancelled';
    case 'network':
      return `could not fetch: ${failure.message}`;
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;
}
