// The Models page's entry: the server injects the session token into index.html; every API call
// carries it.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApi } from './api.js';
import { App } from './App.js';
import './styles/base.css';
import './styles/settings.css';
import './styles/cards.css';
import './styles/picker.css';
import './styles/profiles.css';
import './styles/usage.css';
import './styles/chat.css';
import './styles/sessions.css';
import './styles/health.css';
import './styles/webhooks.css';
import './styles/deliveries.css';
import './styles/platforms.css';
import './styles/kanban.css';
import './styles/skills.css';
import './styles/logs.css';

declare global {
  interface Window {
    __DASHBOARD_AUTH_TOKEN__?: string;
    __DASHBOARD_SIGNED_IN__?: boolean;
  }
}

const root = document.getElementById('root');
if (root) {
  const token = window.__DASHBOARD_AUTH_TOKEN__ ?? '';
  createRoot(root).render(
    <StrictMode>
      <App api={createApi(token)} hasToken={token !== ''} signedIn={window.__DASHBOARD_SIGNED_IN__ === true} />
    </StrictMode>,
  );
}
