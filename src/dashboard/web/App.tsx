// The dashboard's frame: the top bar with a link to every page, Sign out on a sign-in dashboard,
// and the page the address names (nav.ts). Each page loads its own data through the one API client.
import { useEffect, useState } from 'react';
import type { DashboardApi } from './api.js';
import { HealthStrip } from './HealthStrip.js';
import { hrefOf, PAGES, parseLocation, type Location } from './nav.js';
import { ChatPage } from './pages/ChatPage.js';
import { DeliveriesPage } from './pages/DeliveriesPage.js';
import { KanbanPage } from './pages/KanbanPage.js';
import { LogsPage } from './pages/LogsPage.js';
import { ModelsPage } from './pages/ModelsPage.js';
import { PlatformsPage } from './pages/PlatformsPage.js';
import { ProfilesPage } from './pages/ProfilesPage.js';
import { SessionsPage } from './pages/SessionsPage.js';
import { SkillsPage } from './pages/SkillsPage.js';
import { UsagePage } from './pages/UsagePage.js';
import { WebhooksPage } from './pages/WebhooksPage.js';

function useLocation(): Location {
  const [location, setLocation] = useState(() => parseLocation(window.location.hash));
  useEffect(() => {
    const follow = () => setLocation(parseLocation(window.location.hash));
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  return location;
}

function CurrentPage({ location, api, hasToken }: { location: Location; api: DashboardApi; hasToken: boolean }) {
  const id = location.id === undefined ? {} : { id: location.id };
  switch (location.page) {
    case 'chat':
      return <ChatPage api={api} {...id} />;
    case 'sessions':
      return <SessionsPage api={api} {...id} />;
    case 'usage':
      return <UsagePage api={api} {...id} />;
    case 'profiles':
      return <ProfilesPage api={api} {...id} />;
    case 'models':
      return <ModelsPage api={api} hasToken={hasToken} />;
    case 'webhooks':
      return <WebhooksPage api={api} {...id} />;
    case 'deliveries':
      return <DeliveriesPage api={api} {...id} />;
    case 'platforms':
      return <PlatformsPage api={api} {...id} />;
    case 'kanban':
      return <KanbanPage api={api} {...id} />;
    case 'skills':
      return <SkillsPage api={api} {...id} />;
    case 'logs':
      return <LogsPage api={api} {...id} />;
  }
}

export function App({ api, hasToken, signedIn = false }: { api: DashboardApi; hasToken: boolean; signedIn?: boolean }) {
  const location = useLocation();
  const [signOutError, setSignOutError] = useState<string | null>(null);
  const current = PAGES.find((page) => page.id === location.page);
  useEffect(() => {
    document.title = `${current?.label ?? 'Models'} · Iris dashboard`;
  }, [current]);
  return (
    <>
      <header className="topbar">
        <span className="brand">Iris</span>
        <nav className="topbar-nav" aria-label="Pages">
          {PAGES.map((page) => (
            <a key={page.id} href={hrefOf({ page: page.id })} aria-current={page.id === location.page ? 'page' : undefined}>
              {page.label}
            </a>
          ))}
        </nav>
        {signedIn ? (
          <button
            type="button"
            className="topbar-signout"
            onClick={() => void api.signOut().then((result) => setSignOutError(result.ok ? null : result.error))}
          >
            Sign out
          </button>
        ) : null}
      </header>
      {hasToken && <HealthStrip api={api} />}
      {signOutError !== null && (
        <p className="error" role="alert">
          {signOutError}
        </p>
      )}
      {!hasToken && location.page !== 'models' && (
        <p className="error" role="alert">
          This page has no session token. Open it from the address that <code>iris dashboard</code> prints.
        </p>
      )}
      <CurrentPage location={location} api={api} hasToken={hasToken} />
    </>
  );
}
