// What `npm run demo -- <args>` asks for: the webhook demo (no arguments), a chat platform's
// (`--platform telegram`) or the pull-request review (`--pr-review`). Pure.
import { DemoFailure } from './out.js';

export const PLATFORMS = ['telegram'] as const;

export type Scenario = (typeof PLATFORMS)[number] | 'pr-review';

const USAGE = `the demo takes --platform ${PLATFORMS.join('|')}, --pr-review, or nothing`;

/** `--platform <name>` (or `--platform=<name>`), `--pr-review`; undefined for the webhook demo. */
export function scenarioArgument(args: readonly string[]): Scenario | undefined {
  if (args.length === 0) return undefined;
  if (args[0] === '--pr-review') {
    if (args.length > 1) throw new DemoFailure(`unknown argument ${args[1]}: --pr-review takes no other argument`);
    return 'pr-review';
  }
  const first = args[0]!;
  if (first !== '--platform' && !first.startsWith('--platform=')) throw new DemoFailure(`unknown argument ${first}: ${USAGE}`);
  const inline = first.includes('=');
  const value = inline ? first.slice('--platform='.length) : args[1];
  const extra = args[inline ? 1 : 2];
  if (extra !== undefined) throw new DemoFailure(`unknown argument ${extra}: ${USAGE}`);
  const known = PLATFORMS.find((p) => p === value);
  if (!known) throw new DemoFailure(`--platform: ${value ?? 'a name'} is not one the demo plays (${PLATFORMS.join(', ')})`);
  return known;
}

