// The terminal's sandbox (DECISIONS § Sandbox and fetch guard) through `iris gateway run` with the
// fake model: a webhook run's commands cannot read Iris's home or .env, list the real home, see a
// secret in their environment, or reach a canary server on loopback (network off); with
// `sandbox_network: true` the canary is hit; with `sandbox: off` a route behaves as before. And
// `iris chat` runs commands unsandboxed by default, sandboxed with tools.terminal.sandbox:
// bubblewrap. Needs Debian's bubblewrap (npm test's pretest step installs it).
import { createServer, type Server } from 'node:http';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { postEvent, startGatewayProcess, waitFor, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, removeDir, runIris, runIrisWithInput } from '../helpers/iris.js';

const SECRET_IN_ENV_FILE = 'canary-envfile-5a1f0c9e77';
const SECRET_IN_PROCESS = 'canary-process-0b3e9d2c41';
const ROUTE_SECRET = 'route-secret-0123456789abcdef';

let fake: FakeUpstream;
let canary: Server;
let canaryPort: number;
let canaryHits: string[];
let dir: string;
let home: string;
let workspace: string;
const running: GatewayProcess[] = [];

beforeAll(async () => {
  fake = await startFakeUpstream();
  canaryHits = [];
  canary = createServer((req, res) => {
    canaryHits.push(`${req.method} ${req.url}`);
    res.end('canary answered');
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  canaryPort = (canary.address() as { port: number }).port;
});
afterAll(async () => {
  await fake.close();
  await new Promise((resolve) => canary.close(resolve));
});
beforeEach(async () => {
  fake.reset();
  canaryHits.length = 0;
  dir = await makeTempDir('iris-sandbox-');
  home = join(dir, 'home');
  workspace = join(dir, 'work');
  await mkdir(home, { mode: 0o700 });
  await mkdir(workspace);
  await writeFile(join(workspace, 'README.md'), 'the project\n');
  await writeFile(join(home, '.env'), `OPENAI_API_KEY=test-key-0123456789\nDEPLOY_TOKEN=${SECRET_IN_ENV_FILE}\n`, { mode: 0o600 });
});
afterEach(async () => {
  for (const gateway of running.splice(0)) await gateway.stop('SIGKILL');
  await removeDir(dir);
});

/** Each probe is one command; its output comes back to the model as a tool message. */
function probes(): Record<string, string> {
  return {
    envfile: `cat ${join(home, '.env')}; cat "$IRIS_HOME/.env"; echo "exit=$?"`,
    home: `ls -a ${home}; echo "exit=$?"; ls -a ~`,
    env: 'env | sort',
    network: `(printf 'GET /from-sandbox HTTP/1.0\\r\\n\\r\\n' >/dev/tcp/127.0.0.1/${canaryPort}) 2>&1; echo "exit=$?"`,
    write: `echo made-inside > inside.txt && cat inside.txt && touch ${join(home, 'planted')} 2>&1; echo "exit=$?"`,
    // A link a command plants, for the file tools to follow out of the workspace (they must not).
    link: `ln -s ${join(home, '.env')} leak.txt; echo "exit=$?"`,
  };
}

function scriptProbes(): void {
  const calls = Object.entries(probes()).map(([id, command]) => ({ id, name: 'run_command', arguments: { command } }));
  fake.script(
    'main-m',
    { kind: 'tool_calls', calls },
    { kind: 'tool_calls', calls: [{ id: 'readlink', name: 'read_file', arguments: { path: 'leak.txt' } }] },
    { kind: 'text', deltas: ['done'] },
    { kind: 'text', deltas: ['Title'] },
  );
}

/** The tool results the model got, by call id (from the last request to the main model, which carries them all). */
function toolResults(): Record<string, string> {
  const withTools = fake.requests.filter((request) => (request.body as { messages?: Array<{ role: string }> }).messages?.some((m) => m.role === 'tool'));
  const messages = (withTools.at(-1)!.body as { messages: Array<{ role: string; content: string; tool_call_id?: string }> }).messages;
  return Object.fromEntries(messages.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id!, m.content]));
}

async function gatewayWithRoute(route: string): Promise<GatewayProcess> {
  await writeFile(
    join(home, 'config.yaml'),
    `model:\n  provider: openai\n  default: main-m\napproval_mode: off\nagent:\n  workspace: ${workspace}\nplatforms:\n  webhook:\n    enabled: true\n    extra:\n      host: 127.0.0.1\n      port: 0\n      routes:\n        ci:\n          secret: ${ROUTE_SECRET}\n          events: [push]\n${route}`,
    { mode: 0o600 },
  );
  const gateway = await startGatewayProcess(home, { OPENAI_BASE_URL: `${fake.url}/v1`, SERVICE_SECRET_TOKEN: SECRET_IN_PROCESS });
  running.push(gateway);
  return gateway;
}

async function runEvent(gateway: GatewayProcess): Promise<Record<string, string>> {
  scriptProbes();
  const answer = await postEvent(gateway.url, 'ci', { ref: 'refs/heads/main' }, { secret: ROUTE_SECRET, event: 'push' });
  expect(answer.status).toBe(202);
  await waitFor(async () => {
    const list = await runIris(['webhook', 'deliveries', '--json'], { home });
    const [row] = JSON.parse(list.stdout) as Array<{ state: string }>;
    return row?.state === 'delivered' ? row : undefined;
  }, 20_000, 'the delivery');
  return toolResults();
}

describe('a webhook run in the sandbox (the default for gateway runs)', () => {
  it('reads no secret, lists no home, has a clean environment and no network; writes only the workspace', async () => {
    const results = await runEvent(await gatewayWithRoute(''));
    for (const output of Object.values(results)) {
      expect(output).not.toContain(SECRET_IN_ENV_FILE);
      expect(output).not.toContain(SECRET_IN_PROCESS);
      expect(output).not.toContain('test-key-0123456789');
    }
    expect(results.envfile).toContain(`cat: ${join(home, '.env')}: No such file or directory`);
    expect(results.envfile).toContain('cat: /.env: No such file or directory');
    expect(results.home).toContain(`ls: cannot access '${home}': No such file or directory`);
    expect(results.home).toContain('README.md'); // ~ is the workspace
    const env = results.env!.split('\n').filter((line) => /^[A-Z_]+=/.test(line)).map((line) => line.split('=', 1)[0]);
    expect(env.filter((name) => !['PATH', 'LANG', 'LC_ALL', 'TERM', 'TZ', 'HOME', 'TMPDIR', 'PWD', 'SHLVL', '_', 'OLDPWD'].includes(name!))).toEqual([]);
    expect(results.env).toContain(`HOME=${workspace}\n`);
    expect(results.network).not.toContain('exit=0');
    expect(canaryHits).toEqual([]);
    expect(results.write).toContain('made-inside');
    expect(await readFile(join(workspace, 'inside.txt'), 'utf8')).toBe('made-inside\n');
    await expect(readFile(join(home, 'planted'))).rejects.toThrow('ENOENT');

    // Each sandboxed command is logged with its settings, never its environment.
    const log = await readFile(join(home, 'logs', 'agent.log'), 'utf8');
    const lines = log.split('\n').filter((line) => line.includes('"msg":"sandboxed command"')).map((line) => JSON.parse(line) as { sandbox: string; cwd: string });
    expect(lines).toHaveLength(6);
    // The planted link is there, and read_file refuses to follow it out of the workspace.
    expect(results.link).toContain('exit=0');
    expect(results.readlink).toBe('path "leak.txt" leads outside the workspace through a symbolic link');
    expect(lines.every((line) => line.sandbox === 'bubblewrap (network off)' && line.cwd === workspace)).toBe(true);
    expect(log).not.toContain(SECRET_IN_PROCESS);
  });

  it('with sandbox_network: true the network is shared (the canary is hit), and sandbox_env passes a variable by name', async () => {
    const results = await runEvent(await gatewayWithRoute('          sandbox_network: true\n          sandbox_env: [SERVICE_SECRET_TOKEN]\n'));
    expect(results.network).toContain('exit=0');
    await waitFor(() => (canaryHits.length > 0 ? canaryHits : undefined), 5_000, 'the canary');
    expect(canaryHits).toEqual(['GET /from-sandbox']);
    expect(results.env).toContain(`SERVICE_SECRET_TOKEN=${SECRET_IN_PROCESS}`);
    expect(results.envfile).not.toContain(SECRET_IN_ENV_FILE);
  });

  it('sandbox: off on a route runs as before: the real files, no secret in the environment', async () => {
    const results = await runEvent(await gatewayWithRoute('          sandbox: off\n'));
    expect(results.envfile).toContain(SECRET_IN_ENV_FILE); // the file is readable without the sandbox
    expect(results.env).not.toContain(SECRET_IN_PROCESS); // secret-named variables are still dropped
    expect(results.network).toContain('exit=0');
    await waitFor(() => (canaryHits.length > 0 ? canaryHits : undefined), 5_000, 'the canary');
    const log = await readFile(join(home, 'logs', 'agent.log'), 'utf8');
    expect(log).not.toContain('"msg":"sandboxed command"');
  });
});

describe('iris chat', () => {
  async function chat(extraConfig: string): Promise<string> {
    await writeFile(join(home, 'config.yaml'), `model:\n  provider: openai\n  default: main-m\napproval_mode: off\nagent:\n  workspace: ${workspace}\n${extraConfig}`, { mode: 0o600 });
    fake.script('main-m', { kind: 'tool_calls', calls: [{ id: 'envfile', name: 'run_command', arguments: { command: `cat ${join(home, '.env')}` } }] }, { kind: 'text', deltas: ['ok'] }, { kind: 'text', deltas: ['Title'] });
    const run = await runIrisWithInput(['chat', '-q', 'show me'], '', { home, env: { OPENAI_BASE_URL: `${fake.url}/v1` } });
    expect(run.code).toBe(0);
    return toolResults().envfile!;
  }

  it('runs commands unsandboxed by default (the user\'s own terminal)', async () => {
    expect(await chat('')).toContain(SECRET_IN_ENV_FILE);
  });

  it('runs them in the sandbox with tools.terminal.sandbox: bubblewrap', async () => {
    const output = await chat('tools:\n  terminal:\n    sandbox: bubblewrap\n');
    expect(output).toContain('No such file or directory');
    expect(output).not.toContain(SECRET_IN_ENV_FILE);
  });
});
