// The Deliveries page's list: a route filter and a state filter, then the newest events with
// their state badge and timings, each opening its detail. Updated every 2 s while visible.
import { useCallback, useRef } from 'react';
import { EVENT_STATES, type DeliveriesApi, type DeliveryRow, type EventState, type ListQuery } from './deliveries-api.js';
import { usePolled } from './deliveries-poll.js';
import { attemptsText, durationText, emptyText, routeOptions, timeText } from './deliveries-view.js';
import { StateBadge, withCode } from './deliveries-parts.js';
import { hrefOf } from './nav.js';

export function DeliveriesList({ deliveries, query, onQuery }: { deliveries: DeliveriesApi; query: ListQuery; onQuery: (next: ListQuery) => void }) {
  const seen = useRef(new Set<string>());
  const load = useCallback(() => deliveries.list(query), [deliveries, query]);
  const { value: rows, error } = usePolled(load);
  for (const row of rows ?? []) seen.current.add(row.route);
  const routes = routeOptions(seen.current, query.route);

  return (
    <>
      <div className="deliveries-filters">
        <label>
          <span>Route</span>
          <select value={query.route} onChange={(event) => onQuery({ ...query, route: event.target.value })}>
            <option value="">All routes</option>
            {routes.map((route) => (
              <option key={route} value={route}>
                {route}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>State</span>
          <select value={query.state} onChange={(event) => onQuery({ ...query, state: event.target.value as EventState | '' })}>
            <option value="">Any state</option>
            {EVENT_STATES.map((state) => (
              <option key={state} value={state}>
                {state}
              </option>
            ))}
          </select>
        </label>
      </div>
      {error !== null && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {rows === null && error === null && <p className="loading">Loading events…</p>}
      {rows !== null && rows.length === 0 && <p className="deliveries-empty">{withCode(emptyText(query.route, query.state))}</p>}
      {rows !== null && rows.length > 0 && (
        <ul className="deliveries-rows" aria-live="polite">
          {rows.map((row) => (
            <Row key={row.id} row={row} />
          ))}
        </ul>
      )}
    </>
  );
}

function Row({ row }: { row: DeliveryRow }) {
  return (
    <li className="deliveries-row" data-event-id={row.id}>
      <a href={hrefOf({ page: 'deliveries', id: String(row.id) })} className="deliveries-link" aria-label={`Event ${row.id}: ${row.event} on ${row.route}, ${row.state}`}>
        <span className="deliveries-id">#{row.id}</span>
        <span className="deliveries-what">
          <strong>{row.route}</strong> <span className="deliveries-event">{row.event}</span>
        </span>
        <StateBadge state={row.state} />
      </a>
      <p className="hint deliveries-timings">
        received {timeText(row.received_at)} · last change after {durationText(row.received_at, row.updated_at)} · {attemptsText(row)}
      </p>
      {row.reason !== null && <p className={row.state === 'failed' ? 'deliveries-reason deliveries-reason-bad' : 'deliveries-reason'}>{row.reason}</p>}
      {row.answer_first_line !== null && row.answer_first_line !== '' && <p className="deliveries-first-line">{row.answer_first_line}</p>}
    </li>
  );
}
