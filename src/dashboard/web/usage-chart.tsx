// One Usage chart, drawn by uPlot on a canvas: cost as bars on the left axis, tokens as a line on
// the right, over days or over named groups (model, slot, source). Colours come from the page's
// CSS variables and follow the system's dark mode; nothing is styled inline in the markup
// (uPlot sets sizes through the DOM, which the CSP allows). An unpriced group has no cost bar:
// its table row says "unpriced".
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { UsageJsonRow } from '../../domain/usage-ledger.js';
import { tokensText } from './usage-format.js';

const HEIGHT = 220;

function cssColour(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/** An axis label: a day as `11-28`, a group cut at 14 characters; the table below has them whole. */
function axisLabel(key: string, timeLine: boolean): string {
  if (timeLine) return key.slice(5);
  return key.length > 14 ? `${key.slice(0, 13)}…` : key;
}

function chartOptions(labels: readonly string[], width: number, timeLine: boolean): uPlot.Options {
  const text = cssColour('--muted', '#5a6470');
  const grid = cssColour('--line', '#d9dee4');
  const costColour = cssColour('--accent', '#2257c9');
  const tokenColour = cssColour('--aux-badge', '#6b3fb4');
  const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  return {
    width,
    height: HEIGHT,
    legend: { show: true, live: false },
    cursor: { show: false },
    // Half a slot of room on each side, so the first and last bars are whole.
    scales: { x: { time: false, range: () => [-0.5, Math.max(labels.length - 0.5, 0.5)] }, cost: { auto: true, range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] }, tokens: { auto: true, range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
    axes: [
      { ...axis, values: (_u, splits) => splits.map((i) => (Number.isInteger(i) ? axisLabel(labels[i] ?? '', timeLine) : '')), space: 56, gap: 4 },
      { ...axis, scale: 'cost', values: (_u, splits) => splits.map((v) => `$${v < 1 ? v.toFixed(3) : v.toFixed(2)}`), size: 64 },
      { ...axis, scale: 'tokens', side: 1, values: (_u, splits) => splits.map((v) => tokensText(Math.round(v))), size: 72, grid: { show: false } },
    ],
    series: [
      {},
      { label: 'cost (USD)', scale: 'cost', stroke: costColour, fill: costColour, paths: uPlot.paths.bars?.({ size: [0.6, 48] }), points: { show: false } },
      // A line over days; over groups, one point per group (a line between models says nothing).
      { label: 'tokens', scale: 'tokens', stroke: tokenColour, width: 2, points: { show: true, size: 7, fill: tokenColour }, ...(timeLine ? {} : { paths: () => null }) },
    ],
  };
}

function chartData(rows: readonly UsageJsonRow[]): uPlot.AlignedData {
  return [rows.map((_row, i) => i), rows.map((row) => row.cost_usd), rows.map((row) => row.input_tokens + row.output_tokens)];
}

/** `timeLine`: the rows are days, oldest first (else named groups). */
export function UsageChart({ rows, label, timeLine }: { rows: readonly UsageJsonRow[]; label: string; timeLine: boolean }) {
  const holder = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    let chart: uPlot | undefined;
    const draw = () => {
      chart?.destroy();
      const width = Math.max(240, Math.floor(element.clientWidth));
      chart = new uPlot(chartOptions(rows.map((row) => row.key), width, timeLine), chartData(rows), element);
    };
    draw();
    // Redrawn at a new width, and in the other scheme's colours when the system switches.
    const resize = new ResizeObserver(() => {
      if (chart && Math.floor(element.clientWidth) !== chart.width) draw();
    });
    resize.observe(element);
    const scheme = window.matchMedia('(prefers-color-scheme: dark)');
    scheme.addEventListener('change', draw);
    return () => {
      resize.disconnect();
      scheme.removeEventListener('change', draw);
      chart?.destroy();
    };
  }, [rows, timeLine]);
  return <div className="usage-chart" ref={holder} role="img" aria-label={label} />;
}
