// A profile name in a dashboard request never leaves the home (issue 32): POST /api/profile/describe
// with a path for a name is a 400 naming the rule, and nothing outside the home is read or written.
// The canary beside the home looks like a profile (config.yaml, .env with a key, a model the fake
// upstream answers), so a name that climbed out to it would show up as a model request or a write.
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { startDashboardProcess, type DashboardProcess } from '../helpers/dashboard.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

const RULE = 'must match ^[a-z0-9][a-z0-9._-]{0,63}$ (lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64) and cannot contain ".."';
const HOME_CONFIG = '# the home\nmodel:\n  provider: openai\n  default: main-m\n';
const CANARY_CONFIG = '# the canary: nothing may read or change this\nmodel:\n  provider: openai\n  default: canary-m\n';

let fake: FakeUpstream;
let dir: string;
let home: string;
let canary: string;
let dashboard: DashboardProcess | undefined;

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  dir = await makeTempDir('iris-dashboard-names-');
  home = join(dir, 'home');
  canary = join(dir, 'canary');
  await mkdir(home, { mode: 0o700 });
  await writeFile(join(home, 'config.yaml'), HOME_CONFIG, { mode: 0o600 });
  expect((await runIris(['profile', 'create', 'work'], { home })).code).toBe(0);
  await mkdir(canary);
  await writeFile(join(canary, 'config.yaml'), CANARY_CONFIG);
  await writeFile(join(canary, '.env'), `OPENAI_API_KEY=sk-canary-0123456789abcdef\nOPENAI_BASE_URL=${fake.url}/v1\n`);
});
afterEach(async () => {
  await dashboard?.stop();
  dashboard = undefined;
  await removeDir(dir);
});

/** Every file under `root` with its bytes and modification time: what "unchanged" means here. */
async function snapshot(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    const info = await stat(path);
    out[path] = entry.isFile() ? `${info.mtimeMs} ${await readFile(path, 'utf8')}` : `${info.mtimeMs} dir`;
  }
  return out;
}

describe('POST /api/profile/describe with a name that is a path', { timeout: 30_000 }, () => {
  it('is a 400 naming the rule, with no model call and nothing outside the home read or written', async () => {
    // Answers ready for every model: a name that got through would be served, and seen.
    for (const model of ['canary-m', 'main-m']) fake.script(model, { kind: 'text', deltas: ['Leaked.'] });
    const canaryBefore = await snapshot(canary);
    const profilesBefore = await snapshot(join(home, 'profiles'));
    const dash = await startDashboardProcess(home, { OPENAI_API_KEY: 'sk-home-0123456789abcdef', OPENAI_BASE_URL: `${fake.url}/v1` });
    dashboard = dash;
    const post = async (profile: string) => {
      const response = await fetch(`${dash.url}/api/profile/describe`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-session-token': dash.token },
        body: JSON.stringify({ profile }),
      });
      return { status: response.status, json: await response.json() };
    };
    // `../../canary` is the canary from $IRIS_HOME/profiles/; `../` and `..` are the home itself.
    for (const name of ['../', '../../x', '/etc', '/tmp/x', 'a/b', '../../canary', '..', canary, 'Work', '%2e%2e']) {
      expect(await post(name)).toEqual({ status: 400, json: { error: `profile name ${JSON.stringify(name)} ${RULE}` } });
    }
    expect(fake.requests).toEqual([]);
    expect(await snapshot(canary)).toEqual(canaryBefore);
    // Inside the home only the dashboard's own files may change (logs/audit.log records the refusals).
    expect(await snapshot(join(home, 'profiles'))).toEqual(profilesBefore);
    expect(await readFile(join(home, 'config.yaml'), 'utf8')).toBe(HOME_CONFIG);
    expect((await readdir(dir)).sort()).toEqual(['canary', 'home']);
    // A good name that names no profile is still the 404 it was.
    expect(await post('nope')).toEqual({ status: 404, json: { error: 'no profile "nope"; see iris profile list' } });
  });
});
