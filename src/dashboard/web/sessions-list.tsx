// The Sessions page's list: tabs (Chats / Automation / All), a debounced search over titles and
// message text, a source filter, and the sessions newest first with "Show more".
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { hrefOf } from './nav.js';
import { TABS, type SessionList, type SessionRow, type SessionsApi, type TabId } from './sessions-api.js';
import { emptyText, lastActive, sourceFitsTab, sourceOptions, tabAfterKey } from './sessions-view.js';

export const PAGE_SIZE = 50;
const SEARCH_DELAY_MS = 300;

/** What the list shows; kept by the page, so coming back from a transcript finds it as it was. */
export type ListFilters = { readonly tab: TabId; readonly q: string; readonly source: string };

export function SessionsList({ sessions, filters, onFilters }: { sessions: SessionsApi; filters: ListFilters; onFilters: (next: ListFilters) => void }) {
  const [typed, setTyped] = useState(filters.q);
  const [list, setList] = useState<SessionList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const seen = useRef(new Set<string>());
  const tabRefs = useRef(new Map<TabId, HTMLButtonElement>());

  // The search waits for a pause in typing.
  useEffect(() => {
    if (typed === filters.q) return;
    const timer = setTimeout(() => onFilters({ ...filters, q: typed }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, filters, onFilters]);

  useEffect(() => {
    let current = true;
    setList(null);
    void sessions.list({ ...filters, offset: 0, limit: PAGE_SIZE }).then((result) => {
      if (!current) return;
      setError(result.ok ? null : result.error);
      if (result.ok) {
        for (const row of result.value.sessions) seen.current.add(row.source);
        setList(result.value);
      }
    });
    return () => {
      current = false;
    };
  }, [sessions, filters]);

  async function showMore() {
    if (!list) return;
    setLoadingMore(true);
    const result = await sessions.list({ ...filters, offset: list.sessions.length, limit: PAGE_SIZE });
    setLoadingMore(false);
    setError(result.ok ? null : result.error);
    if (result.ok) setList({ ...result.value, sessions: [...list.sessions, ...result.value.sessions] });
  }

  function chooseTab(tab: TabId, focus = false) {
    onFilters({ ...filters, tab, source: sourceFitsTab(tab, filters.source) ? filters.source : '' });
    if (focus) tabRefs.current.get(tab)?.focus();
  }

  function onTabKey(event: KeyboardEvent<HTMLDivElement>) {
    const next = tabAfterKey(TABS.map((tab) => tab.id), filters.tab, event.key);
    if (next === undefined) return;
    event.preventDefault();
    chooseTab(next, true);
  }

  const options = sourceOptions(filters.tab, seen.current);
  return (
    <>
      <div className="sessions-tabs" role="tablist" aria-label="Which sessions" onKeyDown={onTabKey}>
        {TABS.map((tab) => (
          <button
            key={tab.id}
            ref={(node) => {
              if (node) tabRefs.current.set(tab.id, node);
            }}
            type="button"
            role="tab"
            id={`sessions-tab-${tab.id}`}
            aria-selected={tab.id === filters.tab}
            aria-controls="sessions-panel"
            tabIndex={tab.id === filters.tab ? 0 : -1}
            onClick={() => chooseTab(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div className="sessions-panel" id="sessions-panel" role="tabpanel" aria-labelledby={`sessions-tab-${filters.tab}`}>
        <div className="sessions-filters">
          <label className="sessions-search">
            <span>Search</span>
            <input type="search" value={typed} placeholder="Words in a title or a message" onChange={(event) => setTyped(event.target.value)} />
          </label>
          <label className="sessions-source">
            <span>Source</span>
            <select value={filters.source} onChange={(event) => onFilters({ ...filters, q: typed, source: event.target.value })}>
              {options.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
              {options.some((option) => option.value === filters.source) ? null : <option value={filters.source}>{filters.source}</option>}
            </select>
          </label>
        </div>
        {error !== null && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        {list === null && error === null && <p className="loading">Loading sessions…</p>}
        {list !== null && <Rows list={list} filters={filters} />}
        {list !== null && list.sessions.length < list.total && (
          <button type="button" className="sessions-more" disabled={loadingMore} onClick={() => void showMore()}>
            {loadingMore ? 'Loading…' : `Show more (${list.total - list.sessions.length} left)`}
          </button>
        )}
      </div>
    </>
  );
}

function Rows({ list, filters }: { list: SessionList; filters: ListFilters }) {
  const now = Date.now();
  if (list.sessions.length === 0) return <p className="sessions-empty">{withCode(emptyText(filters.tab, filters.q, filters.source))}</p>;
  return (
    <>
      <p className="hint sessions-count" aria-live="polite">
        {list.total} session{list.total === 1 ? '' : 's'}
        {list.scan_limited ? ' (the search looked at the newest 2,000 sessions only)' : ''}
      </p>
      <ul className="sessions-rows">
        {list.sessions.map((row) => (
          <Row key={row.id} row={row} now={now} />
        ))}
      </ul>
    </>
  );
}

/** `text with \`a command\`` → the command in <code>. */
function withCode(text: string) {
  return text.split('`').map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part));
}

function Row({ row, now }: { row: SessionRow; now: number }) {
  return (
    <li className="sessions-row">
      <a href={hrefOf({ page: 'sessions', id: row.id })} className="sessions-title">
        {row.title ?? <span className="sessions-untitled">Untitled session</span>}
      </a>
      <span className="sessions-meta">
        <span className="sessions-source-tag">{row.source}</span>
        <span>
          {row.provider} · {row.model}
        </span>
        <span>
          {row.messages} message{row.messages === 1 ? '' : 's'}
        </span>
        {row.status !== 'idle' && <span className={`sessions-status sessions-status-${row.status}`}>{row.status}</span>}
        <time dateTime={row.updated_at} title={row.updated_at}>
          {lastActive(row.updated_at, now)}
        </time>
      </span>
    </li>
  );
}
