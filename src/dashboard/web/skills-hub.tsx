// The hub search: the words go to `GET /api/skills/hub` (the hubs of skills.hubs, ranked by the
// skills_hub slot); each result has Install. A slot that fails is shown as an error, with the
// unranked matches still listed when the server sent them.
import { useId, useState, type FormEvent } from 'react';
import type { HubHit, HubSearch, SkillsClient } from './skills-api.js';

function HubResult({ hit, installed, client, onInstalled }: { hit: HubHit; installed: boolean; client: SkillsClient; onInstalled: (name: string) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const install = async () => {
    setBusy(true);
    setError(null);
    const result = await client.install(hit.name);
    setBusy(false);
    if (!result.ok) setError(result.error);
    else onInstalled(result.value.installed);
  };
  return (
    <li className="skills-item" data-hit={hit.name} aria-label={`Hub skill ${hit.name}`}>
      <div className="skills-item-head">
        <h3>{hit.name}</h3>
        <button type="button" className="skills-head-action" onClick={() => void install()} disabled={busy || installed} aria-label={`Install skill ${hit.name}`}>
          {installed ? 'Installed' : busy ? 'Installing…' : 'Install'}
        </button>
      </div>
      <p className="skills-description">{hit.description}</p>
      {hit.reason !== null && <p className="hint">Why: {hit.reason}</p>}
      <p className="hint skills-source">From {hit.source}</p>
      {error !== null && (
        <p className="error" role="alert">
          Could not install {hit.name}: {error}
        </p>
      )}
    </li>
  );
}

export function HubSearchPanel({ client, installedNames, onInstalled }: { client: SkillsClient; installedNames: ReadonlySet<string>; onInstalled: (name: string) => void }) {
  const id = useId();
  const [query, setQuery] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [answer, setAnswer] = useState<HubSearch | null>(null);

  const search = async (event: FormEvent) => {
    event.preventDefault();
    if (query.trim() === '') return;
    setBusy(true);
    setError(null);
    const result = await client.search(query.trim());
    setBusy(false);
    setAnswer(result.ok ? result.value : null);
    setError(result.ok ? null : result.error);
  };

  return (
    <section className="panel skills-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Find skills in the hubs</h2>
      <form className="skills-search" onSubmit={(event) => void search(event)} role="search">
        <label htmlFor={id}>Search</label>
        <input id={id} type="search" value={query} maxLength={200} placeholder="e.g. pdf, deploy, review" onChange={(event) => setQuery(event.target.value)} />
        <button type="submit" disabled={busy || query.trim() === ''}>
          {busy ? 'Searching…' : 'Search'}
        </button>
      </form>
      <p className="hint">The hubs are the indexes under skills.hubs in config.yaml; the skills_hub model ranks the matches.</p>
      {error !== null && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {answer?.error !== undefined && (
        <p className="error" role="alert">
          {answer.error}.
        </p>
      )}
      {answer !== null && answer.warnings.map((warning) => (
        <p key={warning} className="notice">
          {warning}
        </p>
      ))}
      {answer !== null && answer.results.length === 0 && <p className="hint skills-empty">No skill in the hubs matches "{answer.query}". Try other words.</p>}
      {answer !== null && answer.results.length > 0 && (
        <ul className="skills-list" aria-label="Search results">
          {answer.results.map((hit) => (
            <HubResult key={`${hit.source}\u0000${hit.name}`} hit={hit} installed={installedNames.has(hit.name)} client={client} onInstalled={onInstalled} />
          ))}
        </ul>
      )}
    </section>
  );
}
