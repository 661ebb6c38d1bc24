// GET /api/sessions/:id/export: the very text `iris sessions export` prints, as a download.
import { transcriptJson, transcriptMarkdown } from '../agent/sessions/transcript-views.js';
import type { Message } from '../domain/messages.js';
import type { SessionSummary } from '../store/types.js';

export const EXPORT_FORMATS = ['md', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export type ExportFile = { readonly body: string; readonly contentType: string; readonly filename: string };

/** A file name any system takes: the id's letters, digits, `_` and `-` only, at most 80 of them. */
export function exportFilename(sessionId: string, format: ExportFormat): string {
  const safe = sessionId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 80) || 'session';
  return `iris-session-${safe}.${format}`;
}

export function exportFile(session: SessionSummary, messages: readonly Message[], format: ExportFormat): ExportFile {
  const filename = exportFilename(session.id, format);
  // `sessions export --format json` prints with printJson: two-space indent and a final newline.
  if (format === 'json') return { body: `${JSON.stringify(transcriptJson(session, messages), null, 2)}\n`, contentType: 'application/json; charset=utf-8', filename };
  return { body: transcriptMarkdown(session, messages), contentType: 'text/markdown; charset=utf-8', filename };
}
