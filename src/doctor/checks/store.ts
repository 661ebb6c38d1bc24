// state.db: absent is fine (it is created on first use); present, it must open and carry a schema
// version this Iris knows. Pure: what the read-only open found comes in as a value.
import type { StoreErrorCode } from '../../store/errors.js';
import { fail, ok, shellWord, warn, type CheckResult } from '../types.js';

export type StoreFacts =
  | { readonly kind: 'absent'; readonly path: string }
  | { readonly kind: 'opened'; readonly path: string; readonly version: number }
  | { readonly kind: 'error'; readonly path: string; readonly code: StoreErrorCode; readonly message: string };

const ID = 'store';

function errorFix(code: StoreErrorCode, path: string): string {
  switch (code) {
    case 'corrupt':
      return `move it aside (mv ${shellWord(path)} ${shellWord(`${path}.broken`)}); Iris starts a new one`;
    case 'newer_schema':
      return 'upgrade Iris (the file was not changed)';
    case 'busy':
      return 'another process holds it locked: try again in a moment';
    case 'readonly':
      return `make it readable and writable by you: chmod 600 ${shellWord(path)}`;
    default:
      return `check ${shellWord(path)} and the disk it is on`;
  }
}

export function checkStore(facts: StoreFacts, knownVersion: number): CheckResult {
  switch (facts.kind) {
    case 'absent':
      return ok(ID, ID, 'no state.db yet (created on first use)');
    case 'opened':
      if (facts.version > knownVersion) {
        return fail(ID, ID, `state.db has schema version ${facts.version}; this Iris knows up to ${knownVersion}`, errorFix('newer_schema', facts.path));
      }
      return facts.version === knownVersion
        ? ok(ID, ID, `state.db opens, schema version ${facts.version} (current)`)
        : ok(ID, ID, `state.db opens, schema version ${facts.version} (brought to ${knownVersion} on next use)`);
    case 'error':
      return facts.code === 'busy'
        ? warn(ID, ID, facts.message, errorFix(facts.code, facts.path))
        : fail(ID, ID, facts.message, errorFix(facts.code, facts.path));
  }
}
