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
import { adminQuery, dropSchema, freshSchemaName, PG_TEST_URL } from '../helpers/postgres.js';

/** Not data: what each of these does instead of printing a result. */
const NOT_DATA: Readonly<Record<string, string>> = {
  gateway: 'runs the gateway in the foreground (same as gateway run)',
  'gateway run': 'runs the gateway in the foreground',
  dashboard: 'serves the dashboard until stopped',
  model: 'the interactive picker (needs a terminal)',
  'auth login': 'the interactive device-flow sign-in',
  'sessions export': 'writes the session itself (--format json is its JSON form)',
};

/** Groups that only hold subcommands (called alone they print their help and exit 2). */
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
  ['curator review', []],
  ['store backup', ['$BACKUP']],
  ['store status', []],
  ['store migrate', []],
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

/** The subcommand names in a help text's Commands section (not `help`). */
function subcommands(help: string): string[] {
  const section = help.split('\nCommands:\n')[1] ?? '';
  return section
    .split('\n')
    .map((line) => /^ {2}(\S+)/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined && name !== 'help');
}

/** Every command and group path under `path`, each with its own help text. */
async function walk(path: string[] = []): Promise<Map<string, string>> {
  const help = await runIris([...path, '--help'], { home });
  expect(help.code, `iris ${path.join(' ')} --help`).toBe(0);
  const found = new Map<string, string>();
  const children = subcommands(help.stdout);
  if (path.length > 0) found.set(path.join(' '), help.stdout);
  for (const child of children) for (const [name, text] of await walk([...path, child])) found.set(name, text);
  return found;
}

/** docs/cli.md's command table: each `iris …` code span of a row's first cell, with the row. */
async function documentedCommands(): Promise<Array<{ readonly command: string; readonly row: string }>> {
  const docs = await readFile(join(REPO_ROOT, 'docs', 'cli.md'), 'utf8');
  return docs
    .split('\n')
    .filter((line) => line.startsWith('| `iris '))
    .flatMap((row) => {
      const cell = (row.split(/(?<!\\)\|/)[1] ?? '').replace(/\\\|/g, '|');
      return [...cell.matchAll(/`(iris [^`]*)`/g)].map((match) => ({ command: match[1] ?? '', row: cell }));
    });
}

/** Is `path` documented with --json: a span `iris <path> …` whose next word is no further subcommand. */
function documentsJson(documented: ReadonlyArray<{ command: string; row: string }>, path: string): boolean {
  const words = path.split(' ');
  return documented.some(({ command, row }) => {
    const tokens = command.split(/\s+/).slice(1);
    const matches = words.every((word, i) => (tokens[i] ?? '').replace(/[[\]]/g, '').split('|').includes(word));
    const next = tokens[words.length] ?? '';
    return matches && !/^[a-z]/.test(next) && row.includes('--json');
  });
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe('--json wherever data is printed', () => {
  it('classifies every command iris --help reaches', async () => {
    const commands = [...(await walk()).keys()].sort();
    expect(commands).toEqual([...GROUPS_ONLY, ...Object.keys(NOT_DATA), ...DATA.map(([path]) => path)].sort());
  });

  it("offers --json in each data command's help and in docs/cli.md", async () => {
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
      if (path === 'chat') session = (parsed as { session_id: string }).session_id;
    }
    expect(session).toMatch(/^s_/);
  });
});
