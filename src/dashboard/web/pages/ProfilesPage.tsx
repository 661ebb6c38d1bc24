// The Profiles page: every profile with its description (edit, Auto-generate), a form for a new
// one (optionally a copy), Delete (asks; never default or the one in use) and Serve here, which
// switches the profile this dashboard serves and reloads the whole UI, since every page's data
// (models, sessions, usage) then comes from that profile's home.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { DashboardApi } from '../api.js';
import { CreateProfile } from '../profiles-create.js';
import { profilesClient, type ProfileList } from '../profiles-api.js';
import { ProfileRow } from '../profiles-row.js';
import { LoadState } from '../load-state.js';

export function ProfilesPage({ api, reload: reloadApp = () => window.location.reload() }: { api: DashboardApi; id?: string; reload?: () => void }) {
  const client = useMemo(() => profilesClient(api), [api]);
  const [list, setList] = useState<ProfileList | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [status, setStatus] = useState('');

  const load = useCallback(async () => {
    const result = await client.list();
    setList(result.ok ? result.value : null);
    setLoadError(result.ok ? null : result.error);
  }, [client]);

  useEffect(() => {
    void load();
  }, [load]);

  const onDescribed = useCallback((name: string, description: string, generated: boolean) => {
    setList((old) => old && { ...old, profiles: old.profiles.map((row) => (row.name === name ? { ...row, description, generated } : row)) });
    setStatus(generated ? `Wrote a description of ${name} with its profile_describer model.` : `Saved the description of ${name}.`);
  }, []);

  const onDeleted = useCallback(
    (name: string) => {
      setList((old) => old && { ...old, profiles: old.profiles.filter((row) => row.name !== name) });
      setStatus(`Deleted profile ${name}: its folder is in profiles/.trash.`);
      void load();
    },
    [load],
  );

  const onCreated = useCallback(
    (name: string, cloneFrom: string | null) => {
      setStatus(cloneFrom === null ? `Created profile ${name}.` : `Created profile ${name}, a copy of ${cloneFrom}.`);
      void load();
    },
    [load],
  );

  const onServe = useCallback(
    async (name: string) => {
      const result = await client.switchTo(name);
      if (!result.ok) return result.error;
      reloadApp();
      return null;
    },
    [client, reloadApp],
  );

  const names = list?.profiles.map((row) => row.name) ?? [];
  return (
    <main className="page profiles-page">
      <div className="page-head">
        <h1>Profiles</h1>
        <p className="lede">
          Each profile is a home of its own: its config.yaml, keys, skills and history.
          {list !== null && (
            <>
              {' '}
              This dashboard serves <strong className="served-name">{list.served}</strong>: every page shows its models, sessions and usage.
            </>
          )}
        </p>
      </div>
      <p className="status" role="status">
        {status}
      </p>
      <LoadState what="the profiles" error={loadError} loaded={list !== null} onRetry={() => void load()} />
      {list !== null && (
        <div className="profiles-layout">
          <ul className="profiles" aria-label="Profiles">
            {list.profiles.map((row) => (
              <ProfileRow key={row.name} row={row} list={list} client={client} onDescribed={onDescribed} onDeleted={onDeleted} onServe={onServe} />
            ))}
          </ul>
          <div>
            <CreateProfile client={client} names={names} onCreated={onCreated} />
            {list.profiles.length === 1 && (
              <p className="hint profiles-empty">
                Only the default profile so far. Create one to keep another setup apart (a work bot with its own models and keys, say): a copy of default starts with the same models and keys.
              </p>
            )}
          </div>
        </div>
      )}
    </main>
  );
}
