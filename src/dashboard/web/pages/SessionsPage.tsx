// The Sessions page (issue 38): the list with its tabs, search and source filter at `#/sessions`,
// one session's transcript at `#/sessions/<id>`. The list's filters live here, so going back from
// a transcript finds the list as it was left.
import { useMemo, useState } from 'react';
import type { DashboardApi } from '../api.js';
import { createSessionsApi } from '../sessions-api.js';
import { SessionsList, type ListFilters } from '../sessions-list.js';
import { SessionTranscript } from '../sessions-transcript.js';

export function SessionsPage({ api, id }: { api: DashboardApi; id?: string }) {
  const sessions = useMemo(() => createSessionsApi(api), [api]);
  const [filters, setFilters] = useState<ListFilters>({ tab: 'chats', q: '', source: '' });
  return (
    <main className="page sessions-page">
      {id === undefined ? (
        <>
          <div className="page-head">
            <h1>Sessions</h1>
            <p className="lede">Chats people started, and the runs of webhook routes and chat platforms. Open one to read it, rename, export or delete it, or resume it in Chat.</p>
          </div>
          <SessionsList sessions={sessions} filters={filters} onFilters={setFilters} />
        </>
      ) : (
        <SessionTranscript key={id} sessions={sessions} id={id} />
      )}
    </main>
  );
}
