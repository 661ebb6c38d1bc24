// A one-line "still waiting" indicator for slow steps (a model's first token, live probes), on a
// terminal only: piped output never carries it. It redraws one line in place with \r and erases
// it when stopped, so the text written after it starts on a clean line.

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'] as const;
const ERASE_LINE = '\r\u001b[2K';

/** `waiting for custom · fake-small (12 s)…` */
export function waitingText(what: string, elapsedMs: number): string {
  return `${what} (${Math.floor(Math.max(0, elapsedMs) / 1000)} s)…`;
}

/** The frame drawn at `tick`: a turning mark and the text. */
export function spinnerFrame(tick: number, text: string): string {
  return `${ERASE_LINE}${FRAMES[tick % FRAMES.length] ?? ''} ${text}`;
}

export type Spinner = { stop(): void };

export type SpinnerStream = { readonly isTTY?: boolean; write(text: string): unknown };

const NO_SPINNER: Spinner = Object.freeze({ stop: () => undefined });

/**
 * Draws `text(elapsedMs)` on `stream` every `intervalMs` until stopped; nothing at all when the
 * stream is not a terminal. stop() is idempotent and erases the line.
 */
export function startSpinner(stream: SpinnerStream, text: (elapsedMs: number) => string, options: { intervalMs?: number; now?: () => number } = {}): Spinner {
  if (!stream.isTTY) return NO_SPINNER;
  const now = options.now ?? Date.now;
  const started = now();
  let tick = 0;
  const draw = () => stream.write(spinnerFrame(tick++, text(now() - started)));
  draw();
  const timer = setInterval(draw, options.intervalMs ?? 120);
  timer.unref();
  let stopped = false;
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      stream.write(ERASE_LINE);
    },
  };
}

/** Runs `work` with a spinner saying `what` (on a terminal), erased when it settles either way. */
export async function whileWaiting<T>(stream: SpinnerStream, what: string, work: () => Promise<T>): Promise<T> {
  const spinner = startSpinner(stream, (ms) => waitingText(what, ms));
  try {
    return await work();
  } finally {
    spinner.stop();
  }
}
