import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeProfile } from '../profiles/describe.js';
import { describeFromRequest } from './profiles-api.js';

const RULE = 'must match ^[a-z0-9][a-z0-9._-]{0,63}$ (lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64) and cannot contain ".."';

const CANARY_CONFIG = 'model:\n  provider: openai\n  default: m\n';

let dir: string;
let home: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'iris-profiles-api-'));
  home = join(dir, 'home');
  // Beside the home, a folder that `../../canary` from profiles/ reaches: a describe there would
  // read its .env and write its config.yaml. The model URL goes nowhere, so a call would fail loudly.
  await mkdir(join(dir, 'canary'), { recursive: true });
  await mkdir(join(home, 'profiles'), { recursive: true });
  await writeFile(join(dir, 'canary', 'config.yaml'), CANARY_CONFIG);
  await writeFile(join(dir, 'canary', '.env'), 'OPENAI_API_KEY=sk-canary-0123456789\nOPENAI_BASE_URL=http://127.0.0.1:9/v1\n');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('describeFromRequest', () => {
  it.each(['../../canary', '../', '..', '/etc', '/tmp/x', 'a/b', '', 'Work'])('answers 400 with the rule for %j, before any file is touched', async (name) => {
    expect(await describeFromRequest({ profile: name }, home, {})).toEqual({ ok: false, status: 400, error: `profile name ${JSON.stringify(name)} ${RULE}` });
    expect(await readdir(join(dir, 'canary'))).toEqual(['.env', 'config.yaml']);
    expect(await readFile(join(dir, 'canary', 'config.yaml'), 'utf8')).toBe(CANARY_CONFIG);
  });

  it('keeps 422 for a body without a profile, and 404 for a good name with no profile', async () => {
    expect(await describeFromRequest({ name: 'work' }, home, {})).toEqual({ ok: false, status: 422, error: 'send {"profile": "<name>"}' });
    expect(await describeFromRequest({ profile: 'nope' }, home, {})).toEqual({ ok: false, status: 404, error: 'no profile "nope"; see iris profile list' });
  });
});

describe('describeProfile', () => {
  it('refuses a bad name itself, so a caller that forgets the check still cannot leave the home', async () => {
    expect(await describeProfile(home, '../../canary', {})).toEqual({ ok: false, code: 'bad_name', message: `profile name "../../canary" ${RULE}` });
  });
});
