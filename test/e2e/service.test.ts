// `iris gateway install-service` and the service line of `iris gateway status`, through bin/iris
// as a subprocess. The unit folders are temporary (XDG_CONFIG_HOME for user units,
// IRIS_SYSTEMD_DIR for system ones) and systemctl is test/fakes/fake-systemctl.mjs, so nothing
// here depends on, or touches, the machine's systemd.
import { chmod, mkdir, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IRIS_BIN, makeTempDir, removeDir, REPO_ROOT, runIris } from '../helpers/iris.js';

const FAKE_SYSTEMCTL = join(REPO_ROOT, 'test', 'fakes', 'fake-systemctl.mjs');

let dir: string;
let home: string;
let config: string;
let systemDir: string;
let record: string;

beforeEach(async () => {
  dir = await makeTempDir();
  // A space in the home: the unit must quote it.
  home = join(dir, 'iris home');
  config = join(dir, 'config');
  systemDir = join(dir, 'system');
  record = join(dir, 'systemctl.jsonl');
  await mkdir(home, { mode: 0o700 });
  await mkdir(systemDir);
});
afterEach(() => removeDir(dir));

const env = (extra: Record<string, string> = {}) => ({ XDG_CONFIG_HOME: config, IRIS_SYSTEMD_DIR: systemDir, IRIS_SYSTEMCTL_BIN: FAKE_SYSTEMCTL, FAKE_SYSTEMCTL_RECORD: record, ...extra });
const iris = (args: string[], extra: Record<string, string> = {}) => runIris(args, { home, env: env(extra) });
const userUnit = () => join(config, 'systemd', 'user', 'iris-gateway.service');
const mode = async (path: string) => ((await stat(path)).mode & 0o777).toString(8);

async function expectedUserUnit(): Promise<string> {
  const bin = await realpath(IRIS_BIN);
  return `# iris-gateway.service: the Iris webhook gateway for IRIS_HOME=${home}
# Written by \`iris gateway install-service\`. Run that again (with --force) to rewrite it, and keep
# local changes in a drop-in (systemctl --user edit iris-gateway.service), which a rewrite leaves alone.
[Unit]
Description=Iris webhook gateway

[Service]
Type=simple
Environment="IRIS_HOME=${home}"
EnvironmentFile=${home}/gateway.env
ExecStart=${process.execPath} ${bin} gateway run
Restart=on-failure
RestartSec=5
RestartPreventExitStatus=2
KillMode=mixed
TimeoutStopSec=30
UMask=0077
NoNewPrivileges=yes

[Install]
WantedBy=default.target
`;
}

describe('iris gateway install-service', () => {
  it('--user writes the unit (0644) and a 0600 environment file of comments, and names the next commands', async () => {
    const result = await iris(['gateway', 'install-service', '--user']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `wrote ${userUnit()} (user unit)\n` +
        `secrets: ${home}/gateway.env (created, 0600, comments only: add provider keys and GH_TOKEN there)\n` +
        'next:\n' +
        '  systemctl --user daemon-reload\n' +
        '  systemctl --user enable --now iris-gateway.service\n' +
        '  journalctl --user -u iris-gateway -f\n' +
        '  loginctl enable-linger "$USER"\n',
    );
    expect(await readFile(userUnit(), 'utf8')).toBe(await expectedUserUnit());
    expect(await mode(userUnit())).toBe('644');
    const envFile = await readFile(join(home, 'gateway.env'), 'utf8');
    expect(await mode(join(home, 'gateway.env'))).toBe('600');
    expect(envFile.split('\n').filter((line) => line !== '' && !line.startsWith('#'))).toEqual([]);
    expect(envFile).toContain('\n# GH_TOKEN=\n');
    expect(envFile).toContain(`# Iris also reads ${home}/.env`);
    // Nothing went to the system folder.
    await expect(stat(join(systemDir, 'iris-gateway.service'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('runs again unchanged, refuses a different unit without --force, replaces it with --force, and never rewrites the environment file', async () => {
    expect((await iris(['gateway', 'install-service', '--user'])).code).toBe(0);
    await writeFile(join(home, 'gateway.env'), 'OPENAI_API_KEY=sk-mine\n', { mode: 0o644 });
    await chmod(join(home, 'gateway.env'), 0o644);

    const again = await iris(['gateway', 'install-service', '--user', '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({
      unit: 'iris-gateway.service',
      scope: 'user',
      unit_path: userUnit(),
      unit_file: 'unchanged',
      env_file: join(home, 'gateway.env'),
      env_file_state: 'kept',
      next: ['systemctl --user daemon-reload', 'systemctl --user enable --now iris-gateway.service', 'journalctl --user -u iris-gateway -f', 'loginctl enable-linger "$USER"'],
    });
    expect(again.stderr).toBe(`iris: warning: narrowed the permissions of ${home}/gateway.env from 0644 to 0600\n`);

    const edited = `${await expectedUserUnit()}# a local edit\n`;
    await writeFile(userUnit(), edited);
    const refused = await iris(['gateway', 'install-service', '--user']);
    expect(refused).toEqual({
      code: 1,
      stdout: '',
      stderr: `iris: error: ${userUnit()} exists and differs from the unit this command writes; see the new one with --print, and replace it with --force\n`,
    });
    expect(await readFile(userUnit(), 'utf8')).toBe(edited);

    const forced = await iris(['gateway', 'install-service', '--user', '--force']);
    expect(forced.code).toBe(0);
    expect(forced.stdout.split('\n')[0]).toBe(`replaced ${userUnit()} (user unit)`);
    expect(await readFile(userUnit(), 'utf8')).toBe(await expectedUserUnit());
    expect(await readFile(join(home, 'gateway.env'), 'utf8')).toBe('OPENAI_API_KEY=sk-mine\n');
    expect(await mode(join(home, 'gateway.env'))).toBe('600');
  });

  it('--print writes the unit on stdout and nothing on disk', async () => {
    const result = await iris(['gateway', 'install-service', '--user', '--print']);
    expect(result).toEqual({ code: 0, stdout: await expectedUserUnit(), stderr: '' });
    await expect(stat(userUnit())).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(stat(join(home, 'gateway.env'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('writes a hardened system unit that runs as the home owner, to IRIS_SYSTEMD_DIR', async () => {
    const result = await iris(['gateway', 'install-service']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('\n  systemctl daemon-reload\n  systemctl enable --now iris-gateway.service\n  journalctl -u iris-gateway -f\n');
    const unit = await readFile(join(systemDir, 'iris-gateway.service'), 'utf8');
    const owner = await stat(home);
    expect(unit).toContain(`\nUser=${owner.uid}\nGroup=${owner.gid}\n`);
    // read-only (not hidden) when the node, bin/iris or the home is under /home, /root or /run/user
    // (the Node 22 run's node is in /root/.cache): the rule of protectHomeFor, unit-tested on its own.
    const underHomes = [process.execPath, await realpath(IRIS_BIN), home].some((path) => /^\/(home|root|run\/user)(\/|$)/.test(path));
    expect(unit).toContain(`\nProtectSystem=strict\nProtectHome=${underHomes ? 'read-only' : 'yes'}\nReadWritePaths="${home}"\n`);
    // The home is under the temp folder: a private /tmp would hide it.
    expect(unit).not.toContain('PrivateTmp');
    expect(unit).toContain('\nWantedBy=multi-user.target\n');
  });

  it.skipIf(process.getuid?.() === 0)('says a system unit needs root when the folder is not writable (exit 1)', async () => {
    await chmod(systemDir, 0o500);
    const result = await iris(['gateway', 'install-service']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `iris: error: cannot write the unit in ${systemDir} (permission denied): a system service needs root; run \`sudo env IRIS_HOME=${JSON.stringify(home)} iris gateway install-service\` (sudo drops IRIS_HOME otherwise), or install a user service with --user\n`,
    );
  });
});

describe('iris gateway status with a service', () => {
  it('without a unit file: the output it always had, and systemctl is never run', async () => {
    const result = await iris(['gateway', 'status']);
    expect(result).toEqual({ code: 1, stdout: 'gateway: not running\n', stderr: '' });
    const json = await iris(['gateway', 'status', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).not.toHaveProperty('service');
    await expect(stat(record)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('shows what systemctl --user show says about an installed user unit', async () => {
    expect((await iris(['gateway', 'install-service', '--user'])).code).toBe(0);
    const result = await iris(['gateway', 'status']);
    expect(result).toEqual({ code: 1, stdout: 'gateway: not running\nservice: iris-gateway.service active (running), enabled\n', stderr: '' });
    expect(await readFile(record, 'utf8')).toBe(`${JSON.stringify(['--user', 'show', 'iris-gateway.service', '--property=ActiveState,SubState,UnitFileState,MainPID'])}\n`);

    const json = await iris(['gateway', 'status', '--json'], { FAKE_SYSTEMCTL_STATE: 'failed/failed/disabled/0' });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      state: 'not_running',
      service: {
        unit: 'iris-gateway.service',
        scope: 'user',
        unit_path: userUnit(),
        systemd: 'known',
        active_state: 'failed',
        sub_state: 'failed',
        unit_file_state: 'disabled',
        main_pid: null,
      },
    });
  });

  it('asks the system manager (no --user) about a system unit', async () => {
    expect((await iris(['gateway', 'install-service'])).code).toBe(0);
    const result = await iris(['gateway', 'status'], { FAKE_SYSTEMCTL_STATE: 'inactive/dead//0' });
    expect(result.stdout).toBe('gateway: not running\nservice: iris-gateway.service inactive (dead)\n');
    expect(await readFile(record, 'utf8')).toBe(`${JSON.stringify(['show', 'iris-gateway.service', '--property=ActiveState,SubState,UnitFileState,MainPID'])}\n`);
  });

  it('says "systemd: unknown" with the reason when systemctl fails or is missing', async () => {
    expect((await iris(['gateway', 'install-service', '--user'])).code).toBe(0);
    const failing = await iris(['gateway', 'status'], { FAKE_SYSTEMCTL_FAIL: 'Failed to connect to bus: No medium found' });
    expect(failing).toEqual({ code: 1, stdout: 'gateway: not running\nservice: iris-gateway.service, systemd: unknown (Failed to connect to bus: No medium found)\n', stderr: '' });
    const missing = join(dir, 'no-systemctl');
    const absent = await iris(['gateway', 'status', '--json'], { IRIS_SYSTEMCTL_BIN: missing });
    expect(JSON.parse(absent.stdout)).toMatchObject({ service: { systemd: 'unknown', reason: `${missing} not found` } });
  });
});
