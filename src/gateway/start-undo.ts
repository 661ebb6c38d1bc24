// What a gateway start has taken so far (pid files, the store, the platforms, the port, …), given
// back when a later step fails: last taken, first given back, and every step runs even when one
// fails (each failure is logged), so one cannot strand the rest.
import { errorMessage } from '../domain/error-message.js';

type ErrorLog = { error(fields: object, message: string): void };

export type StartUndo = {
  /** Remembers how to give back what was just taken. */
  push(step: () => unknown): void;
  /** Gives everything back, last first. */
  run(log: ErrorLog): Promise<void>;
};

export function createStartUndo(): StartUndo {
  const steps: Array<() => unknown> = [];
  return {
    push: (step) => void steps.push(step),
    async run(log) {
      for (const step of steps.splice(0).reverse()) {
        try {
          await step();
        } catch (err) {
          log.error({ err: errorMessage(err) }, 'undoing a failed start: a step failed');
        }
      }
    },
  };
}
