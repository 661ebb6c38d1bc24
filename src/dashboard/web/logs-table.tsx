// The Logs page's table: one row per line, newest first: time, level, message and its fields.
import type { LogRow } from './logs-api.js';
import { fieldsText, timeText } from './logs-view.js';

export function LogsTable({ rows }: { rows: readonly LogRow[] }) {
  return (
    <div className="logs-table-wrap">
      <table className="logs-table">
        <thead>
          <tr>
            <th scope="col">Time (UTC)</th>
            <th scope="col">Level</th>
            <th scope="col">Message</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={index} className={`logs-row logs-level-${row.level}`}>
              <td className="logs-time">
                {timeText(row.time)
                  .split(' ')
                  .map((part) => (
                    <span key={part}>{part} </span>
                  ))}
              </td>
              <td className="logs-level">{row.level.toUpperCase()}</td>
              <td className="logs-message">
                <span className="logs-what">{row.what === '' ? '(no message)' : row.what}</span>
                {fieldsText(row.fields).map((field) => (
                  <code key={field} className="logs-field">
                    {field}
                  </code>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
