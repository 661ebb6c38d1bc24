// What the page says after a change, and which slots a main switch left pinned elsewhere.
import type { Auxiliary, SetRequest, StaleAuxSlot } from './api-types.js';
import { assignmentText } from './format.js';

export const APPLIES_TO_NEW_SESSIONS = 'Changes apply to new sessions; running sessions keep their model.';

export function taskName(aux: Auxiliary | null, task: string): string {
  return aux?.tasks.find((t) => t.task === task)?.name ?? task;
}

/** One sentence for the status line, e.g. `Vision now uses openai · gpt-4.1.` */
export function describeChange(request: SetRequest, aux: Auxiliary | null): string {
  const target = assignmentText(request);
  if (request.scope === 'main') return `The main model is now ${target}.`;
  switch (request.target.kind) {
    case 'reset':
      return 'Every auxiliary task is back to auto (follows the main model).';
    case 'all':
      return `All ${aux?.tasks.length ?? 11} auxiliary tasks now use ${target}.`;
    case 'one':
      return `${taskName(aux, request.target.task)} now uses ${target}.`;
  }
}

/** The slots of a main switch's `stale_aux` that still hold the assignment they held then. */
export function stillStale(stale: readonly StaleAuxSlot[], aux: Auxiliary): StaleAuxSlot[] {
  return stale.filter((slot) =>
    aux.tasks.some((t) => t.task === slot.task && t.provider === slot.provider && t.model === slot.model),
  );
}
