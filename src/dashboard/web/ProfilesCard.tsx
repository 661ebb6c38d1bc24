// The Profiles card: each profile with its description, and an Auto-generate button that has the
// profile_describer slot (with that profile's own settings) write and store a new one.
import { useCallback, useEffect, useState } from 'react';
import type { DashboardApi } from './api.js';
import type { Profiles } from './api-types.js';

type Row = Profiles['profiles'][number];

function ProfileRow({ row, api, onDescribed }: { row: Row; api: DashboardApi; onDescribed: (name: string, description: string) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const generate = async () => {
    setBusy(true);
    setError(null);
    const result = await api.describeProfile(row.name);
    setBusy(false);
    if (!result.ok) return setError(result.error);
    onDescribed(row.name, result.value.description);
  };
  return (
    <li className="profile" data-profile={row.name} aria-label={`Profile ${row.name}`}>
      <div className="profile-head">
        <h3>{row.name}</h3>
        {row.active && <span className="badge">active</span>}
        <button type="button" onClick={() => void generate()} disabled={busy} aria-label={`Auto-generate a description of ${row.name}`}>
          {busy ? 'Generating…' : 'Auto-generate'}
        </button>
      </div>
      <p className="profile-description">{row.description || 'No description yet.'}</p>
      {error !== null && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}

export function ProfilesCard({ api }: { api: DashboardApi }) {
  const [rows, setRows] = useState<readonly Row[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    void api.profiles().then((result) => {
      if (!current) return;
      setRows(result.ok ? result.value.profiles : null);
      setError(result.ok ? null : result.error);
    });
    return () => {
      current = false;
    };
  }, [api]);

  const onDescribed = useCallback((name: string, description: string) => {
    setRows((old) => old?.map((r) => (r.name === name ? { ...r, description } : r)) ?? old);
  }, []);

  return (
    <section className="profiles-card" aria-labelledby="profiles-heading">
      <h2 id="profiles-heading">Profiles</h2>
      {error !== null && (
        <p className="error" role="alert">
          Could not load the profiles: {error}
        </p>
      )}
      {rows !== null && (
        <ul className="profiles">
          {rows.map((row) => (
            <ProfileRow key={row.name} row={row} api={api} onDescribed={onDescribed} />
          ))}
        </ul>
      )}
    </section>
  );
}
