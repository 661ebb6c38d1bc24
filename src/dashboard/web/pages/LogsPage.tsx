// The Logs page (`#/logs`): the gateway, agent and audit logs, newest first, filtered by level,
// text, route and platform. Text fields wait for a pause in typing; Refresh asks again now, and
// auto-refresh asks every few seconds while the tab is visible.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DashboardApi } from '../api.js';
import { fetchLogs, type Logs } from '../logs-api.js';
import { LogsTable } from '../logs-table.js';
import { AUTO_REFRESH_MS, DEFAULT_FILTERS, emptyText, LEVEL_CHOICES, LOG_LIMIT, LOG_NAMES, type LogFilters, type LogName } from '../logs-view.js';

const TYPING_DELAY_MS = 300;

export function LogsPage({ api }: { api: DashboardApi; id?: string }) {
  const [filters, setFilters] = useState<LogFilters>(DEFAULT_FILTERS);
  const [typed, setTyped] = useState({ q: '', route: '', platform: '' });
  const [logs, setLogs] = useState<Logs | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [auto, setAuto] = useState(false);

  // Typed filters apply after a pause, so each key press is not a request.
  useEffect(() => {
    if (typed.q === filters.q && typed.route === filters.route && typed.platform === filters.platform) return;
    const timer = setTimeout(() => setFilters((current) => ({ ...current, ...typed })), TYPING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, filters]);

  // Only the latest request's answer is shown: an earlier one (older filters, a slow refresh) that
  // comes back after it is dropped.
  const latest = useRef(0);
  const inFlight = useRef(false);
  const load = useCallback(async () => {
    const asked = ++latest.current;
    inFlight.current = true;
    setLoading(true);
    const result = await fetchLogs(api, filters);
    if (asked !== latest.current) return;
    inFlight.current = false;
    setLoading(false);
    setError(result.ok ? null : result.error);
    setLogs(result.ok ? result.value : null);
  }, [api, filters]);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    if (!auto) return;
    const timer = setInterval(() => {
      // A tick while a read is still out is skipped, so a slow read is never dropped for a newer tick's.
      if (document.visibilityState !== 'hidden' && !inFlight.current) void load();
    }, AUTO_REFRESH_MS);
    return () => clearInterval(timer);
  }, [auto, load]);

  return (
    <main className="page logs-page">
      <div className="page-head">
        <h1>Logs</h1>
        <p className="lede">The gateway, agent and audit logs, newest first. Secrets are shown as [redacted].</p>
      </div>
      <form className="logs-filters" role="search" aria-label="Log filters" onSubmit={(event) => event.preventDefault()}>
        <label>
          <span>Log</span>
          <select value={filters.log} onChange={(event) => setFilters({ ...filters, log: event.target.value as LogName })}>
            {LOG_NAMES.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Level</span>
          <select value={filters.level} onChange={(event) => setFilters({ ...filters, level: event.target.value })}>
            {LEVEL_CHOICES.map((level) => (
              <option key={level} value={level}>
                {level === '' ? 'any level' : `${level} and above`}
              </option>
            ))}
          </select>
        </label>
        <label className="logs-search">
          <span>Search</span>
          <input type="search" value={typed.q} placeholder="Text in a message or field" maxLength={200} onChange={(event) => setTyped({ ...typed, q: event.target.value })} />
        </label>
        <label>
          <span>Route</span>
          <input type="text" value={typed.route} placeholder="any" maxLength={64} onChange={(event) => setTyped({ ...typed, route: event.target.value })} />
        </label>
        <label>
          <span>Platform</span>
          <input type="text" value={typed.platform} placeholder="any" maxLength={32} onChange={(event) => setTyped({ ...typed, platform: event.target.value })} />
        </label>
        <div className="logs-actions">
          <button type="button" onClick={() => void load()} disabled={loading}>
            {loading ? 'Loading…' : 'Refresh'}
          </button>
          <label className="logs-auto">
            <input type="checkbox" checked={auto} onChange={(event) => setAuto(event.target.checked)} />
            <span>Auto-refresh every {AUTO_REFRESH_MS / 1000} s</span>
          </label>
        </div>
      </form>
      {error !== null && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {logs === null && error === null && <p className="loading">Loading the log…</p>}
      {logs !== null && logs.entries.length === 0 && <p className="logs-empty">{emptyText(filters)}</p>}
      {logs !== null && logs.entries.length > 0 && (
        <>
          <p className="hint logs-count">
            {logs.entries.length === LOG_LIMIT ? `The newest ${LOG_LIMIT} matching lines.` : `${logs.entries.length} matching line${logs.entries.length === 1 ? '' : 's'}.`}
            {logs.scan_limited ? ' The search stopped after the newest 32 MB of the log; narrow it to look further back.' : ''}
          </p>
          <LogsTable rows={logs.entries} />
        </>
      )}
    </main>
  );
}
