// The webhook inbox's test variants: SQLite in both its accept modes (on the store's connection,
// as the CLI uses it, and on the gateway's writer thread, `server: true`) and PostgreSQL.
import { STORE_BACKENDS, type OpenOptions, type StoreBackend } from './store-backends.js';

export type InboxStoreVariant = { readonly name: string; readonly backend: StoreBackend; readonly options: OpenOptions };

export const INBOX_STORE_VARIANTS: readonly InboxStoreVariant[] = STORE_BACKENDS.flatMap((backend): InboxStoreVariant[] =>
  backend.name === 'sqlite'
    ? [
        { name: 'sqlite, in-process accepts', backend, options: {} },
        { name: 'sqlite, the writer thread (server)', backend, options: { server: true } },
      ]
    : [{ name: backend.name, backend, options: {} }],
);
