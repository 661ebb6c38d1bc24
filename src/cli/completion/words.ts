// The fixed word lists a completion script carries: config keys (from the schema), provider
// ids, the slots, the chat platforms, the logs. Routes are asked of `iris webhook list` when
// completed, since subscriptions change.
import { configSchema } from '../../config/schema.js';
import { knownKeysAt } from '../../config/schema-walk.js';
import { CHAT_PLATFORMS } from '../../domain/platforms.js';
import { PROVIDER_IDS } from '../../domain/provider-ids.js';
import { AUX_TASKS } from '../../domain/slots.js';
import { LOG_SOURCES } from '../../log/log-lines.js';

/** Every dotted key the schema names, parents too (`model`, `model.provider`, …). */
export function configKeys(): string[] {
  const keys: string[] = [];
  const visit = (path: readonly string[]) => {
    if (path.length > 5) return;
    for (const key of knownKeysAt(configSchema, path)) {
      keys.push([...path, key].join('.'));
      visit([...path, key]);
    }
  };
  visit([]);
  return keys;
}

export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;

/** The fixed sources, by the names tree.ts uses. */
export function fixedWords(): Readonly<Record<string, readonly string[]>> {
  return {
    config_keys: configKeys(),
    providers: PROVIDER_IDS,
    slots: [...AUX_TASKS.map((task) => task.id), 'all'],
    platforms: CHAT_PLATFORMS,
    logs: LOG_SOURCES,
    shells: COMPLETION_SHELLS,
  };
}

/** The shell command that prints the route names, one a line (config routes and subscriptions). */
export const ROUTES_COMMAND = `iris webhook list --json 2>/dev/null | grep -o '"name": *"[^"]*"' | sed 's/.*"\\([^"]*\\)"$/\\1/'`;
