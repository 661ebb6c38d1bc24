// "Every command that prints data takes --json": every command `iris --help` reaches (walked
// recursively) is either a data command — its help offers --json, docs/cli.md lists it with
// --json, and run with --json it prints one valid JSON document — or named below as not printing
// data, with the reason. A new command that is neither fails the first test.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { makeTempDir, removeDir, REPO_ROOT, runIris } from '../helpers/iris.js';
import { parseJson } from '../helpers/documents.js';
import { jsonConventionProblems } from '../helpers/json-convention.js';
import { documentedCommands, rowsFor, walkCommands, type DocumentedCommand } from '../helpers/command-tree.js';
import { adminQuery, dropSchema, freshSchemaName, PG_TEST_URL } from '../helpers/postgres.js';

/** Not data: what each of these does instead of printing a result. */
const NOT_DATA: Readonly<Record<string, string>> = {
  gateway: 'runs the gateway in the foreground (same as gateway run)',
  'gateway run': 'runs the gateway in the foreground',
  dashboard: 'serves the dashboard until stopped',
  'dashboard password': 'sets or clears the dashboard password (asked on a terminal or read from stdin)',
  model: 'the interactive picker (needs a terminal)',
  'auth login': 'the interactive device-flow sign-in',
  'sessions export': 'writes the session itself (--format json is its JSON form)',
  completion: 'prints a shell script',
};

/** Groups that only hold subcommands (called alone they print their help and exit 0). */
const GROUPS_ONLY = ['config', 'sessions', 'webhook', 'pairing', 'slack', 'model aux', 'store', 'mcp', 'kanban', 'curator', 'skills', 'profile'];

/** Data commands, with the arguments each is run with (besides --json), in the order they run. */
const DATA: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['version', []],
  ['setup', ['--provider', 'openai', '--model', 'main-m', '--yes']],
  ['config show', []],
  ['config get', ['model.provider']],
  ['config set', ['agent.max_iterations', '12']],
  ['config schema', []],
  ['model set', ['openai', 'main-m']],
  ['model aux set', ['vision', 'openai', 'gpt-4.1']],
  ['model aux reset', []],
  ['status', []],
  ['chat', ['-q', 'hello']],
  ['usage', []],
  ['logs', []],
  ['curator review', []],
  ['store backup', ['$BACKUP']],
  ['store status', []],
  ['store migrate', []],
  ['store prune', ['--dry-run']],
  // Into a fresh PostgreSQL schema of the test database.
  ['store copy', ['--to', '$PGURL']],
  ['sessions list', []],
  ['sessions show', ['$SESSION']],
  ['sessions rename', ['$SESSION', 'Renamed']],
  ['webhook subscribe', ['pr', '--events', 'pull_request', '--secret', 'a-long-enough-test-secret']],
  ['webhook list', []],
  // No gateway yet, and Twilio unreachable: the message stays queued (a JSON result, exit 0).
  ['send', ['--to', 'sms:+15551230001', 'hello']],
  ['gateway install-service', ['--user']],
  ['gateway start', []],
  ['gateway status', []],
  ['webhook test', ['pr', '--payload', '{"number":1}']],
  ['webhook deliveries', []],
  ['gateway restart', []],
  ['gateway stop', []],
  ['webhook remove', ['pr']],
  ['pairing list', []],
  // No gateway has stored a pairing request here: the refusals (exit 1) are the JSON documents.
  ['pairing approve', ['telegram', 'k7q2m9xd']],
  ['pairing revoke', ['telegram', '4242']],
  ['slack manifest', []],
  ['auth', []],
  ['auth add', ['openai', '--client-id', 'client-1', '--issuer', 'http://127.0.0.1:9/']],
  ['auth logout', ['openai']],
  ['auth remove', ['openai']],
  ['doctor', ['--offline']],
  ['sessions delete', ['$SESSION', '--yes']],
  ['sessions prune', ['--older-than', '0s', '--yes']],
  ['mcp add', ['fake', process.execPath, join(REPO_ROOT, 'test/fakes/mcp-server.mjs')]],
  ['mcp list', []],
  ['mcp tools', []],
  ['mcp test', ['fake']],
  ['mcp remove', ['fake']],
  ['kanban add', ['dark mode']],
  ['kanban list', []],
  ['kanban show', ['1']],
  ['kanban move', ['1', 'doing']],
  // The fake's unscripted answer ("ok") is malformed: the refusal is the JSON document.
  ['kanban specify', ['1']],
  ['kanban decompose', ['1']],
  ['skills search', ['pdf']],
  ['skills install', [join(REPO_ROOT, 'test/fixtures/skills/pdf-tools/SKILL.md')]],
  ['skills list', []],
  ['skills show', ['pdf-tools']],
  ['skills remove', ['pdf-tools']],
  ['profile create', ['json-p']],
  ['profile list', []],
  ['profile show', ['json-p']],
  ['profile use', ['default']],
  ['profile describe', ['json-p']],
  ['profile delete', ['json-p']],
];

let dir: string;
let home: string;
let fake: FakeUpstream;
const schema = freshSchemaName('iris_json');
beforeAll(async () => {
  fake = await startFakeUpstream();
  await adminQuery(`CREATE SCHEMA ${schema}`);
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
});
afterAll(async () => {
  await runIris(['gateway', 'stop'], { home });
  await fake.close();
  await dropSchema(schema);
  await removeDir(dir);
});

/** Is `path` documented with --json. */
function documentsJson(documented: readonly DocumentedCommand[], path: string): boolean {
  return rowsFor(documented, path).some(({ row }) => row.includes('--json'));
}

const walk = () => walkCommands(home);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe('--json wherever data is printed', () => {
  it('classifies every command iris --help reaches', { timeout: 60_000 }, async () => {
    const commands = [...(await walk()).keys()].sort();
    expect(commands).toEqual([...GROUPS_ONLY, ...Object.keys(NOT_DATA), ...DATA.map(([path]) => path)].sort());
  });

  it("offers --json in each data command's help and in docs/cli.md", { timeout: 60_000 }, async () => {
    const helps = await walk();
    const documented = await documentedCommands();
    for (const [path] of DATA) {
      expect(helps.get(path), `iris ${path} --help`).toMatch(/--json\b/);
      expect(documentsJson(documented, path), `docs/cli.md lists iris ${path} with --json`).toBe(true);
    }
  });

  it('prints one valid JSON document for each data command', { timeout: 120_000 }, async () => {
    const port = await freePort();
    // Unit folders of its own: install-service writes there, and gateway status looks there.
    const env = { OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1`, TWILIO_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef', TWILIO_AUTH_TOKEN: 'f00dfeedc0ffee0123456789abcdef01', XDG_CONFIG_HOME: join(dir, 'xdg'), IRIS_SYSTEMD_DIR: join(dir, 'systemd') };
    let session = '';
    const problems: string[] = [];
    for (const [path, args] of DATA) {
      if (path === 'webhook subscribe') {
        // The gateway needs a listener of its own on this machine.
        const config = await readFile(join(home, 'config.yaml'), 'utf8');
        await writeFile(
          join(home, 'config.yaml'),
          `${config}platforms:\n  webhook:\n    enabled: true\n    extra:\n      host: 127.0.0.1\n      port: ${port}\n` +
            '  sms:\n    enabled: true\n    extra:\n      api_base: http://127.0.0.1:1\n      from: "+15550000000"\n      public_url: https://iris.example.com/platforms/sms\n',
        );
      }
      const argv = [...path.split(' '), ...args.map((arg) => (arg === '$SESSION' ? session : arg === '$BACKUP' ? join(dir, 'backup.db') : arg === '$PGURL' ? `${PG_TEST_URL}?options=-c%20search_path%3D${schema}` : arg)), '--json'];
      const result = await runIris(argv, { home, env });
      let parsed: unknown;
      expect(() => (parsed = parseJson(result.stdout)), `iris ${argv.join(' ')} printed:\n${result.stdout}\n${result.stderr}`).not.toThrow();
      // config schema is a JSON Schema document: its keys are that standard's ($schema, anyOf, …).
      if (path !== 'config schema') problems.push(...jsonConventionProblems(parsed).map((problem) => `iris ${path} --json: ${problem}`));
      if (path === 'chat') session = (parsed as { session_id: string }).session_id;
    }
    expect(session).toMatch(/^s_/);
    expect(problems).toEqual([]);
  });
});
