// The installed skills with their usage (loads, last load) and where each came from; Remove asks
// first, in the page, and deletes the skill's folder (as `iris skills remove`).
import { useEffect, useRef, useState } from 'react';
import type { InstalledSkill, SkillsClient } from './skills-api.js';
import { loadsText, sourceText, whenText } from './skills-view.js';

function RemoveConfirm({ name, busy, onRemove, onCancel }: { name: string; busy: boolean; onRemove: () => void; onCancel: () => void }) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div className="notice skills-confirm" role="group" aria-label={`Remove skill ${name}?`}>
      <p>
        Remove skill <strong>{name}</strong>? Its folder is deleted; the agent stops seeing it at once. The curator's archive keeps skills instead.
      </p>
      <div className="skills-actions">
        <button type="button" className="skills-danger" onClick={onRemove} disabled={busy}>
          {busy ? 'Removing…' : `Remove ${name}`}
        </button>
        <button type="button" ref={cancel} onClick={onCancel} onKeyDown={(event) => event.key === 'Escape' && onCancel()} disabled={busy}>
          Keep it
        </button>
      </div>
    </div>
  );
}

function SkillRow({ skill, client, onRemoved }: { skill: InstalledSkill; client: SkillsClient; onRemoved: (name: string) => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const removeButton = useRef<HTMLButtonElement>(null);

  const remove = async () => {
    setBusy(true);
    setError(null);
    const result = await client.remove(skill.name);
    setBusy(false);
    if (!result.ok) {
      setError(result.error);
      return;
    }
    onRemoved(skill.name);
  };
  const cancel = () => {
    setConfirming(false);
    removeButton.current?.focus();
  };

  return (
    <li className="skills-item" data-skill={skill.name} aria-label={`Skill ${skill.name}`}>
      <div className="skills-item-head">
        <h3>{skill.name}</h3>
        <span className="skills-usage" data-loads={skill.loads}>
          {loadsText(skill.loads)}
        </span>
        {!confirming && (
          <button type="button" ref={removeButton} className="skills-danger skills-head-action" onClick={() => setConfirming(true)} aria-label={`Remove skill ${skill.name}`}>
            Remove
          </button>
        )}
      </div>
      <p className="skills-description">{skill.description}</p>
      <dl className="skills-facts">
        <dt>Last load</dt>
        <dd>{whenText(skill.last_load_at)}</dd>
        <dt>Source</dt>
        <dd className="skills-source">{sourceText(skill.source)}</dd>
      </dl>
      {confirming && <RemoveConfirm name={skill.name} busy={busy} onRemove={() => void remove()} onCancel={cancel} />}
      {error !== null && (
        <p className="error" role="alert">
          Could not remove {skill.name}: {error}
        </p>
      )}
    </li>
  );
}

export function InstalledSkills({ skills, invalid, client, onRemoved }: { skills: readonly InstalledSkill[]; invalid: readonly { folder: string; error: string }[]; client: SkillsClient; onRemoved: (name: string) => void }) {
  return (
    <section className="panel skills-section" aria-labelledby="skills-installed-title">
      <h2 id="skills-installed-title">Installed</h2>
      {skills.length === 0 ? (
        <p className="hint skills-empty">
          No skills installed yet. Search the hubs below and press Install, or run <code>iris skills install &lt;name&gt;|&lt;url&gt;</code>.
        </p>
      ) : (
        <ul className="skills-list">
          {skills.map((skill) => (
            <SkillRow key={skill.name} skill={skill} client={client} onRemoved={onRemoved} />
          ))}
        </ul>
      )}
      {invalid.length > 0 && (
        <div className="notice skills-invalid">
          <p>These folders under skills/ are not valid skills (fix their SKILL.md):</p>
          <ul>
            {invalid.map((entry) => (
              <li key={entry.folder}>
                <code>{entry.folder}</code>: {entry.error}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
