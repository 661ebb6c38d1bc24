// The Profiles page's form for a new profile: a name and, optionally, a profile whose config.yaml
// and .env are copied (what `iris profile create <name> --clone <from>` does).
import { useId, useState, type FormEvent } from 'react';
import type { ProfilesClient } from './profiles-api.js';
import { newNameProblem } from './profiles-view.js';

const EMPTY = '';

export function CreateProfile({ client, names, onCreated }: { client: ProfilesClient; names: readonly string[]; onCreated: (name: string, cloneFrom: string | null) => void }) {
  const id = useId();
  const [name, setName] = useState('');
  const [from, setFrom] = useState(EMPTY);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const wanted = name.trim();
    const problem = newNameProblem(wanted, names);
    if (problem) return setError(problem);
    setBusy(true);
    setError(null);
    const result = await client.create(wanted, from === EMPTY ? undefined : from);
    setBusy(false);
    if (!result.ok) return setError(result.error);
    setName('');
    setFrom(EMPTY);
    onCreated(result.value.name, result.value.cloned_from);
  };

  return (
    <form className="panel profile-create" onSubmit={(event) => void submit(event)} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>New profile</h2>
      <div className="profile-create-fields">
        <label htmlFor={`${id}-name`}>
          Name
          <input
            id={`${id}-name`}
            type="text"
            value={name}
            onChange={(event) => setName(event.target.value)}
            autoComplete="off"
            spellCheck={false}
            placeholder="e.g. travel"
            aria-describedby={`${id}-hint`}
          />
        </label>
        <label htmlFor={`${id}-from`}>
          Start from
          <select id={`${id}-from`} value={from} onChange={(event) => setFrom(event.target.value)}>
            <option value={EMPTY}>An empty home</option>
            {names.map((profile) => (
              <option key={profile} value={profile}>
                A copy of {profile}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create profile'}
        </button>
      </div>
      <p className="hint" id={`${id}-hint`}>
        Lowercase letters, digits, <code>.</code>, <code>_</code> and <code>-</code>. A copy takes the other profile’s config.yaml and .env (models and keys), never its history or skills.
      </p>
      {error !== null && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
