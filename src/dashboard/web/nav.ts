// The dashboard's pages and the address of each: `#/<page>` plus an optional id
// (`#/sessions/<id>`, `#/chat/<session id>`). No hash, or one naming no page, is the Models page
// (where the dashboard has always opened).
export const PAGES = [
  { id: 'chat', label: 'Chat' },
  { id: 'sessions', label: 'Sessions' },
  { id: 'usage', label: 'Usage' },
  { id: 'models', label: 'Models' },
  { id: 'profiles', label: 'Profiles' },
  { id: 'webhooks', label: 'Webhooks' },
  { id: 'deliveries', label: 'Deliveries' },
  { id: 'platforms', label: 'Platforms' },
  { id: 'kanban', label: 'Kanban' },
  { id: 'skills', label: 'Skills' },
  { id: 'logs', label: 'Logs' },
] as const;

export type PageId = (typeof PAGES)[number]['id'];

export type Location = { readonly page: PageId; readonly id?: string };

export const DEFAULT_PAGE: PageId = 'models';

export function parseLocation(hash: string): Location {
  const [page = '', ...rest] = hash.replace(/^#\/?/, '').split('/');
  const known = PAGES.find((entry) => entry.id === page);
  if (!known) return { page: DEFAULT_PAGE };
  const id = rest.join('/');
  if (id === '') return { page: known.id };
  try {
    return { page: known.id, id: decodeURIComponent(id) };
  } catch {
    return { page: known.id };
  }
}

export function hrefOf(location: Location): string {
  return `#/${location.page}${location.id === undefined ? '' : `/${encodeURIComponent(location.id)}`}`;
}
