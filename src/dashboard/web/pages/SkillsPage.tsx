// The Skills page: the installed skills with their usage and Remove, a hub search with Install,
// and the curator's last report with Apply for its archive proposals. Each part reloads what it
// changed, so the list and the report never disagree with the disk.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { DashboardApi } from '../api.js';
import { skillsClient, type CuratorReport, type SkillList } from '../skills-api.js';
import { CuratorPanel } from '../skills-curator.js';
import { HubSearchPanel } from '../skills-hub.js';
import { InstalledSkills } from '../skills-installed.js';
import { LoadState } from '../load-state.js';

export function SkillsPage({ api }: { api: DashboardApi; id?: string }) {
  const client = useMemo(() => skillsClient(api), [api]);
  const [list, setList] = useState<SkillList | null>(null);
  const [report, setReport] = useState<CuratorReport | null | undefined>(undefined);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [status, setStatus] = useState('');

  const load = useCallback(async () => {
    const [skills, curator] = await Promise.all([client.list(), client.curator()]);
    if (skills.ok) setList(skills.value);
    if (curator.ok) setReport(curator.value.report);
    setLoadError(!skills.ok ? skills.error : !curator.ok ? curator.error : null);
  }, [client]);

  useEffect(() => {
    void load();
  }, [load]);

  const onRemoved = useCallback((name: string) => {
    setStatus(`Removed skill ${name}.`);
    void load();
  }, [load]);
  const onInstalled = useCallback((name: string) => {
    setStatus(`Installed skill ${name}.`);
    void load();
  }, [load]);
  const onApplied = useCallback((archived: readonly string[]) => {
    setStatus(archived.length === 0 ? 'Nothing was archived.' : `Archived ${archived.join(', ')} to skills/.archive/.`);
    void load();
  }, [load]);

  const installedNames = useMemo(() => new Set(list?.skills.map((skill) => skill.name) ?? []), [list]);
  return (
    <main className="page skills-page">
      <div className="page-head">
        <h1>Skills</h1>
        <p className="lede">The skills the agent can load, how often it loads them, new ones from the hubs, and the curator's advice.</p>
      </div>
      <p className="status" role="status">
        {status}
      </p>
      <LoadState what="the skills" error={loadError} loaded={list !== null} onRetry={() => void load()} />
      <div className="skills-layout">
        {list !== null && <InstalledSkills skills={list.skills} invalid={list.invalid} client={client} onRemoved={onRemoved} />}
        <div className="skills-side">
          <HubSearchPanel client={client} installedNames={installedNames} onInstalled={onInstalled} />
          {report !== undefined && <CuratorPanel report={report} client={client} onApplied={onApplied} />}
        </div>
      </div>
    </main>
  );
}
