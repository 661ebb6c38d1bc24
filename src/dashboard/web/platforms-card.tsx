// One enabled platform on the Platforms page: its connection (as the gateway last reported it),
// settings (secrets only as set / not set, decided by the server), who owns it, the home channel,
// pairing and the Test button.
import type { PlatformCard as Card, PlatformsClient } from './platforms-api.js';
import { PlatformPairing } from './platforms-pairing.js';
import { PlatformTest } from './platforms-test.js';
import { connectionChip } from './platforms-view.js';

type Props = { readonly card: Card; readonly gatewayRunning: boolean; readonly client: PlatformsClient; readonly onChanged: (message: string) => void };

export function PlatformCard({ card, gatewayRunning, client, onChanged }: Props) {
  const chip = connectionChip(card.connection.state);
  return (
    <li className="platform-card" aria-label={card.name}>
      <div className="platform-head">
        <h2>{card.name}</h2>
        <span className={chip.className}>{chip.label}</span>
      </div>
      <p className="platform-detail">
        {card.connection.detail}
        {card.connection.since !== null && <span className="hint"> (since {new Date(card.connection.since).toLocaleString()})</span>}
      </p>
      <dl className="platform-facts">
        <dt>Home channel</dt>
        <dd>{card.home_channel === null ? <span className="hint">none (send /sethome in a chat, as an owner)</span> : <code>{card.home_channel}</code>}</dd>
        <dt>Owners</dt>
        <dd>{card.owners.length === 0 ? <span className="hint">none (platforms.{card.name}.extra.owners)</span> : card.owners.join(', ')}</dd>
        <dt>Allowed users</dt>
        <dd>{card.allow_all_users ? 'everyone (allow_all_users)' : card.allowed_users.length === 0 ? <span className="hint">none listed</span> : card.allowed_users.join(', ')}</dd>
      </dl>
      <details className="platform-settings">
        <summary>Settings</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Setting</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {card.settings.map((row) => (
              <tr key={`${row.source}:${row.key}`}>
                <th scope="row">
                  <code>{row.source === 'env' ? row.key : `extra.${row.key}`}</code>
                </th>
                <td className={row.secret ? `platform-secret platform-secret-${row.value === 'set' ? 'set' : 'unset'}` : undefined}>{row.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      <PlatformPairing platform={card.name} pending={card.pending} approved={card.approved} client={client} onChanged={onChanged} />
      <PlatformTest platform={card.name} homeChannel={card.home_channel} gatewayRunning={gatewayRunning} client={client} />
    </li>
  );
}
