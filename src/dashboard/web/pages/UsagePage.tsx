// The Usage page, the ledger: tokens (input, output, cache read, cache write) and cost by day,
// model, slot and source for the last 7, 30 or 90 days or a custom range, with the previous
// period's totals beside them. Every figure comes from GET /api/usage, which answers what
// `iris usage --json` prints for the same window.
import { useEffect, useMemo, useState } from 'react';
import { usageTotal, type UsageJsonRow } from '../../../domain/usage-ledger.js';
import type { DashboardApi } from '../api.js';
import { fetchLedger, type Ledger } from '../usage-api.js';
import { UsageChart } from '../usage-chart.js';
import { changeText, ledgerCostText, tokensText } from '../usage-format.js';
import { changePercent, customRange, fillDays, isoInstant, lastDays, PRESET_DAYS, slotRows, type UsageRange } from '../usage-range.js';
import { UsageTable } from '../usage-table.js';

type Choice = { readonly kind: 'preset'; readonly days: number } | { readonly kind: 'custom'; readonly from: string; readonly to: string };

const isoDay = (at: number) => new Date(at).toISOString().slice(0, 10);

function rangeOf(choice: Choice, now: number): { range?: UsageRange; error?: string } {
  if (choice.kind === 'preset') return { range: lastDays(choice.days, now) };
  const custom = customRange(choice.from, choice.to);
  return custom.ok ? { range: custom.range } : { error: custom.error };
}

export function UsagePage({ api }: { api: DashboardApi; id?: string }) {
  const [choice, setChoice] = useState<Choice>({ kind: 'preset', days: 7 });
  const [from, setFrom] = useState(() => isoDay(lastDays(7, Date.now()).since));
  const [to, setTo] = useState(() => isoDay(Date.now()));
  const [ledger, setLedger] = useState<Ledger | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { range, error: rangeError } = rangeOf(choice, Date.now());
  const shownError = rangeError ?? error;
  const since = range?.since;
  const until = range?.until;

  useEffect(() => {
    if (since === undefined || until === undefined) return;
    let current = true;
    setError(null);
    void fetchLedger(api, { since, until }).then((result) => {
      if (!current) return;
      setLedger(result.ok ? result.value : null);
      setError(result.ok ? null : result.error);
    });
    return () => {
      current = false;
    };
  }, [api, since, until]);

  return (
    <main className="page usage-page">
      <div className="page-head">
        <h1>Usage</h1>
      </div>
      <section className="panel usage-controls" aria-label="Range">
        <div className="usage-presets" role="group" aria-label="Last days">
          {PRESET_DAYS.map((days) => (
            <button key={days} type="button" aria-pressed={choice.kind === 'preset' && choice.days === days} onClick={() => setChoice({ kind: 'preset', days })}>
              {days} days
            </button>
          ))}
        </div>
        <form
          className="usage-custom"
          onSubmit={(event) => {
            event.preventDefault();
            setChoice({ kind: 'custom', from, to });
          }}
        >
          <label>
            From <input type="date" value={from} onChange={(event) => setFrom(event.target.value)} />
          </label>
          <label>
            To <input type="date" value={to} onChange={(event) => setTo(event.target.value)} />
          </label>
          <button type="submit" aria-pressed={choice.kind === 'custom'}>
            Show range
          </button>
        </form>
        {range && (
          <p className="muted usage-window">
            {isoDay(range.since)} to {isoDay(range.until - 1)} (UTC days); as <code>iris usage --since {isoInstant(range.since)} --until {isoInstant(range.until)}</code>
          </p>
        )}
      </section>
      {shownError && (
        <p className="error" role="alert">
          {shownError}
        </p>
      )}
      {ledger && range && ledger.range.since === range.since && ledger.range.until === range.until && <LedgerView ledger={ledger} />}
    </main>
  );
}

function LedgerView({ ledger }: { ledger: Ledger }) {
  const total = usageTotal(ledger.bySource);
  const previous = usageTotal(ledger.previous);
  // Derived once per answer: the charts redraw when their rows change, not on every keystroke above.
  const days = useMemo(() => fillDays(ledger.byDay, ledger.range), [ledger]);
  const slots = useMemo(() => slotRows(ledger.byTask), [ledger]);
  if (total.calls === 0 && previous.calls === 0) {
    return (
      <section className="panel usage-empty">
        <h2>No model calls in this range</h2>
        <p>
          Every call is recorded here as it is made: chat with <code>iris chat</code> or on the Chat page, or let a webhook or chat platform run, then
          come back. Or pick a longer range above.
        </p>
      </section>
    );
  }
  return (
    <>
      <Totals current={total} previous={previous} />
      <UsageSection title="By day" label="Cost and tokens by UTC day" rows={days} tableRows={ledger.byDay} group="day" />
      <UsageSection title="By model" label="Cost and tokens by model" rows={ledger.byModel} tableRows={ledger.byModel} group="model" />
      <UsageSection title="By slot" label="Cost and tokens by slot: main and the 11 auxiliary tasks" rows={slots} tableRows={slots} group="slot" />
      <UsageSection title="By source" label="Cost and tokens by source" rows={ledger.bySource} tableRows={ledger.bySource} group="source" />
    </>
  );
}

function Totals({ current, previous }: { current: UsageJsonRow; previous: UsageJsonRow }) {
  const figures: ReadonlyArray<readonly [string, string, string, number | null]> = [
    ['Calls', tokensText(current.calls), tokensText(previous.calls), changePercent(current.calls, previous.calls)],
    ['Input tokens', tokensText(current.input_tokens), tokensText(previous.input_tokens), changePercent(current.input_tokens, previous.input_tokens)],
    ['Output tokens', tokensText(current.output_tokens), tokensText(previous.output_tokens), changePercent(current.output_tokens, previous.output_tokens)],
    ['Cache read', tokensText(current.cached_tokens), tokensText(previous.cached_tokens), changePercent(current.cached_tokens, previous.cached_tokens)],
    ['Cache write', tokensText(current.cache_write_tokens), tokensText(previous.cache_write_tokens), changePercent(current.cache_write_tokens, previous.cache_write_tokens)],
    ['Cost', ledgerCostText(current), ledgerCostText(previous), changePercent(current.cost_usd, previous.cost_usd)],
  ];
  return (
    <section className="panel usage-totals" aria-labelledby="usage-totals-title">
      <h2 id="usage-totals-title">Totals</h2>
      <dl className="usage-figures">
        {figures.map(([name, now, before, change]) => (
          <div key={name} className="usage-figure" data-figure={name}>
            <dt>{name}</dt>
            <dd className="usage-now">{now}</dd>
            <dd className="usage-before">
              previous period: {before} <span className="usage-change">{changeText(change)}</span>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function UsageSection(props: { title: string; label: string; rows: readonly UsageJsonRow[]; tableRows: readonly UsageJsonRow[]; group: string }) {
  const id = `usage-${props.group}`;
  return (
    <section className="panel usage-section" aria-labelledby={`${id}-title`} data-group={props.group}>
      <h2 id={`${id}-title`}>{props.title}</h2>
      <UsageChart rows={props.rows} label={props.label} timeLine={props.group === 'day'} />
      <UsageTable rows={props.tableRows} group={props.group} caption={props.label} />
    </section>
  );
}
