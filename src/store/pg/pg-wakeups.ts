// LISTEN/NOTIFY between the processes that share one PostgreSQL (store.wakeups). The store's
// writes notify in the transaction that adds the work (`notifySql`), so the wake is delivered at
// its commit; each subscribing process holds one dedicated connection that LISTENs. If that
// connection drops, it is opened again (with a growing pause), and every subscriber is woken once
// after it is back: work that arrived while it was gone is picked up, not left to the poll.
import pg from 'pg';
import type { StoreWakeups, WakeChannel } from '../types.js';

/** The NOTIFY channel of a wake channel in one schema (channels are database-wide). */
export function channelName(channel: WakeChannel, schema: string | undefined): string {
  return schema === undefined ? `iris_${channel}` : `iris_${channel}_${schema}`;
}

/** The statement that wakes `channel`'s listeners when the surrounding transaction commits. */
export function notifySql(channel: WakeChannel, schema: string | undefined): string {
  return `SELECT pg_notify('${channelName(channel, schema)}', '')`;
}

export type PgWakeups = StoreWakeups & { close(): Promise<void> };

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 10_000;

export function createPgWakeups(url: string, schema: string | undefined): PgWakeups {
  const subscribers = new Map<string, Set<() => void>>();
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let closed = false;
  let reconnectDelay = RECONNECT_MIN_MS;
  let reconnectTimer: NodeJS.Timeout | undefined;

  const wakeAll = () => {
    for (const set of subscribers.values()) for (const wake of set) wake();
  };

  const scheduleReconnect = () => {
    if (closed || reconnectTimer) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      ensureConnected().then(wakeAll, scheduleReconnect);
    }, reconnectDelay);
    reconnectTimer.unref();
    reconnectDelay = Math.min(reconnectDelay * 2, RECONNECT_MAX_MS);
  };

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: url, application_name: 'iris-listen', connectionTimeoutMillis: 5_000 });
    next.on('notification', (message) => {
      for (const wake of subscribers.get(message.channel) ?? []) wake();
    });
    next.on('error', () => {
      void next.end().catch(() => {});
      if (client !== next) return; // failed while connecting: the connect's caller hears of it
      client = undefined;
      scheduleReconnect();
    });
    try {
      await next.connect();
      for (const name of subscribers.keys()) await next.query(`LISTEN "${name}"`);
    } catch (err) {
      void next.end().catch(() => {});
      throw err;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    reconnectDelay = RECONNECT_MIN_MS;
  }

  /** One connection attempt at a time, whoever asks (a subscribe, the reconnect timer). */
  function ensureConnected(): Promise<void> {
    if (client || closed) return Promise.resolve();
    connecting ??= connect().finally(() => (connecting = undefined));
    return connecting;
  }

  return {
    async subscribe(channel, onWake) {
      const name = channelName(channel, schema);
      let set = subscribers.get(name);
      const first = set === undefined;
      if (!set) subscribers.set(name, (set = new Set()));
      set.add(onWake);
      try {
        await ensureConnected();
      } catch (err) {
        // Kept trying in the background; the subscriber is listened for once it connects.
        scheduleReconnect();
        throw err;
      }
      if (first && client) await client.query(`LISTEN "${name}"`);
      return async () => {
        set.delete(onWake);
      };
    },
    async close() {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}
