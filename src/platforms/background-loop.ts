// The lifecycle the connection-holding adapters share (Telegram's poller, Slack's Socket Mode,
// Discord's gateway, Signal's event stream): one loop at a time, started under an
// AbortController, a crash of the loop logged and shown in the connection state (never silent),
// and a stop that aborts, waits for the loop to end and says 'stopped'.
import type { ConnectionState, PlatformLog } from './types.js';

export type BackgroundLoop = {
  /** A loop is running or starting: a second start must not open a second connection. */
  readonly running: () => boolean;
  /** Claims the loop for a start; its signal ends the connection on stop(). */
  readonly begin: () => AbortSignal;
  /** The loop itself; a rejection (not expected: loops return failures as values) is logged. */
  readonly run: (work: Promise<void>) => void;
  readonly stop: () => Promise<void>;
};

export function createBackgroundLoop(options: {
  readonly platform: string;
  readonly log: PlatformLog;
  readonly setState: (state: ConnectionState) => void;
  /** The state after a crash, e.g. 'polling stopped after an internal error'. */
  readonly crashDetail: string;
  /** The log line of a crash, e.g. 'Telegram poller crashed'. */
  readonly crashMessage: string;
}): BackgroundLoop {
  let controller: AbortController | null = null;
  let loop: Promise<void> | null = null;
  return {
    running: () => controller !== null,
    begin: () => {
      controller = new AbortController();
      return controller.signal;
    },
    run: (work) => {
      loop = work.catch((error: unknown) => {
        options.setState({ connected: false, detail: options.crashDetail });
        options.log.error({ platform: options.platform, err: error instanceof Error ? error.message : String(error) }, options.crashMessage);
      });
    },
    stop: async () => {
      controller?.abort();
      await loop;
      controller = null;
      loop = null;
      options.setState({ connected: false, detail: 'stopped' });
    },
  };
}
