import { describe, expect, it } from 'vitest';
import { checkStore } from './store.js';

const PATH = '/home/me/.iris/state.db';

describe('checkStore', () => {
  it.each([
    [{ kind: 'absent', path: PATH }, 'ok', 'no state.db yet (created on first use)'],
    [{ kind: 'opened', path: PATH, version: 3 }, 'ok', 'state.db opens, schema version 3 (current)'],
    [{ kind: 'opened', path: PATH, version: 0 }, 'ok', 'state.db opens, schema version 0 (brought to 3 on next use)'],
  ] as const)('%j', (facts, status, finding) => {
    expect(checkStore(facts, 3)).toEqual({ id: 'store', name: 'store', status, finding });
  });

  it.each([
    [{ kind: 'opened', path: PATH, version: 9 }, 'fail', 'state.db has schema version 9; this Iris knows up to 3', 'upgrade Iris (the file was not changed)'],
    [{ kind: 'error', path: PATH, code: 'corrupt', message: `${PATH} is damaged` }, 'fail', `${PATH} is damaged`, `move it aside (mv ${PATH} ${PATH}.broken); Iris starts a new one`],
    [{ kind: 'error', path: PATH, code: 'busy', message: `${PATH} is locked` }, 'warn', `${PATH} is locked`, 'another process holds it locked: try again in a moment'],
    [{ kind: 'error', path: PATH, code: 'readonly', message: `${PATH} cannot be written` }, 'fail', `${PATH} cannot be written`, `make it readable and writable by you: chmod 600 ${PATH}`],
  ] as const)('%#: problems', (facts, status, finding, fix) => {
    expect(checkStore(facts, 3)).toEqual({ id: 'store', name: 'store', status, finding, fix });
  });
});
