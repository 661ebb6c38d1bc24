import { describe, expect, it } from 'vitest';
import { checkSandbox } from './sandbox.js';

describe('the sandbox check', () => {
  it('fails when a run needs bubblewrap and it is missing, naming the package', () => {
    expect(checkSandbox({ neededFor: 'webhook and chat runs', bwrap: undefined, trial: undefined })).toEqual({
      id: 'sandbox', name: 'sandbox', status: 'fail',
      finding: 'webhook and chat runs run commands in bubblewrap, which is not on PATH: their commands are refused',
      fix: 'apt-get install bubblewrap',
    });
  });

  it('fails when bwrap cannot make its namespaces, and is ok when it can', () => {
    expect(checkSandbox({ neededFor: 'webhook and chat runs', bwrap: '/usr/bin/bwrap', trial: { ok: false, message: 'No permissions to creating new namespace' } })).toMatchObject({ status: 'fail' });
    expect(checkSandbox({ neededFor: 'webhook and chat runs', bwrap: '/usr/bin/bwrap', trial: { ok: true } })).toEqual({
      id: 'sandbox', name: 'sandbox', status: 'ok', finding: 'webhook and chat runs run commands in bubblewrap (/usr/bin/bwrap)',
    });
  });

  it('says nothing to fix when no run is sandboxed', () => {
    expect(checkSandbox({ neededFor: undefined, bwrap: undefined, trial: undefined })).toBeUndefined();
    expect(checkSandbox({ neededFor: undefined, bwrap: '/usr/bin/bwrap', trial: undefined })).toBeUndefined();
  });
});
