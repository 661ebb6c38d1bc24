// The curator's last report: each proposal with its reason; Apply moves the archive proposals'
// skills to skills/.archive/ (as `iris curator review --apply`), after an in-page confirm. Keep,
// merge and rewrite proposals are advice for a person: nothing applies them.
import { useEffect, useRef, useState } from 'react';
import type { CuratorReport, SkillsClient } from './skills-api.js';
import { applicableArchives, proposalText, whenText } from './skills-view.js';

export function CuratorPanel({ report, client, onApplied }: { report: CuratorReport | null; client: SkillsClient; onApplied: (archived: readonly string[]) => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
  }, [confirming]);

  if (report === null) {
    return (
      <section className="panel skills-section" aria-labelledby="skills-curator-title">
        <h2 id="skills-curator-title">Curator</h2>
        <p className="hint skills-empty">
          No curator report yet. Run <code>iris curator review</code>, or set <code>curator.schedule: daily</code> in config.yaml and the gateway reviews the skills by itself.
        </p>
      </section>
    );
  }

  const archives = applicableArchives(report.proposals);
  const apply = async () => {
    setBusy(true);
    setError(null);
    const result = await client.apply(archives.map((proposal) => proposal.id));
    setBusy(false);
    setConfirming(false);
    if (!result.ok) setError(result.error);
    else onApplied(result.value.archived.map((entry) => entry.skill));
  };

  return (
    <section className="panel skills-section" aria-labelledby="skills-curator-title">
      <h2 id="skills-curator-title">Curator: last report ({report.date})</h2>
      <p className="hint">
        {report.days === null ? 'Usage window unknown.' : `Usage over the last ${report.days} days.`} Reviewed {whenText(report.at)}. File: <code>{report.path}</code>
      </p>
      {!report.has_data && <p className="notice">This report was written before reports kept their proposals; run <code>iris curator review</code> again to apply them here.</p>}
      {report.has_data && report.proposals.length === 0 && <p className="hint skills-empty">The curator proposed nothing. Install skills and use them; the next review will have something to say.</p>}
      {report.proposals.length > 0 && (
        <ul className="skills-proposals">
          {report.proposals.map((proposal) => (
            <li key={proposal.id} className={`skills-proposal skills-action-${proposal.action}`} data-proposal={proposal.id}>
              <strong>{proposal.skill}</strong>: {proposalText(proposal)}
              {proposal.action === 'archive' && !proposal.installed && <span className="skills-tag">archived or removed</span>}
              <div className="hint">Reason: {proposal.reason}</div>
            </li>
          ))}
        </ul>
      )}
      {archives.length > 0 && !confirming && (
        <div className="skills-actions">
          <button type="button" onClick={() => setConfirming(true)} disabled={busy}>
            Apply {archives.length} archive proposal{archives.length === 1 ? '' : 's'}
          </button>
        </div>
      )}
      {confirming && (
        <div className="notice skills-confirm" role="group" aria-label="Apply the archive proposals?">
          <p>
            Move {archives.map((proposal) => proposal.skill).join(', ')} to <code>skills/.archive/</code>? Nothing is deleted: an archived skill can be moved back by hand.
          </p>
          <div className="skills-actions">
            <button type="button" ref={confirmButton} onClick={() => void apply()} disabled={busy}>
              {busy ? 'Archiving…' : 'Archive them'}
            </button>
            <button type="button" onClick={() => setConfirming(false)} onKeyDown={(event) => event.key === 'Escape' && setConfirming(false)} disabled={busy}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {error !== null && (
        <p className="error" role="alert">
          Could not apply: {error}
        </p>
      )}
    </section>
  );
}
