// The table under each Usage chart: the exact figures of `iris usage --json`, one row per group,
// then the total. Wide on a phone, so it scrolls inside its own box, never the page.
import { usageTotal, type UsageJsonRow } from '../../domain/usage-ledger.js';
import { ledgerCostText, tokensText } from './usage-format.js';

const COLUMNS = ['calls', 'input', 'output', 'cache read', 'cache write', 'cost'] as const;

function cells(row: UsageJsonRow): string[] {
  return [tokensText(row.calls), tokensText(row.input_tokens), tokensText(row.output_tokens), tokensText(row.cached_tokens), tokensText(row.cache_write_tokens), ledgerCostText(row)];
}

export function UsageTable({ rows, group, caption }: { rows: readonly UsageJsonRow[]; group: string; caption: string }) {
  return (
    <div className="usage-table-box">
      <table className="usage-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{group}</th>
            {COLUMNS.map((name) => (
              <th key={name} scope="col">
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} data-key={row.key}>
              <th scope="row">{row.key}</th>
              {cells(row).map((text, i) => (
                <td key={COLUMNS[i]}>{text}</td>
              ))}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr data-key="total">
            <th scope="row">total</th>
            {cells(usageTotal(rows)).map((text, i) => (
              <td key={COLUMNS[i]}>{text}</td>
            ))}
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
