import { describe, expect, it } from 'vitest';
import { buildGatewayUnit, privateTmpFor, protectHomeFor, type GatewayUnitInput } from './gateway-unit.js';

const base: GatewayUnitInput = {
  scope: 'system',
  home: '/var/lib/iris',
  node: '/usr/bin/node',
  irisBin: '/opt/iris/bin/iris',
  envFile: '/var/lib/iris/gateway.env',
  extraWritablePaths: [],
  runAs: { uid: 998, gid: 997 },
  stopTimeoutSec: 30,
};

describe('buildGatewayUnit', () => {
  it('writes a hardened system unit that runs the foreground gateway as the home owner', () => {
    expect(buildGatewayUnit(base)).toBe(
      [
        '# iris-gateway.service: the Iris webhook gateway for IRIS_HOME=/var/lib/iris',
        '# Written by `iris gateway install-service`. Run that again (with --force) to rewrite it, and keep',
        '# local changes in a drop-in (systemctl edit iris-gateway.service), which a rewrite leaves alone.',
        '[Unit]',
        'Description=Iris webhook gateway',
        'Wants=network-online.target',
        'After=network-online.target',
        '',
        '[Service]',
        'Type=simple',
        'User=998',
        'Group=997',
        'Environment=IRIS_HOME=/var/lib/iris',
        'EnvironmentFile=/var/lib/iris/gateway.env',
        'ExecStart=/usr/bin/node /opt/iris/bin/iris gateway run',
        'Restart=on-failure',
        'RestartSec=5',
        'RestartPreventExitStatus=2',
        'KillMode=mixed',
        'TimeoutStopSec=30',
        'UMask=0077',
        'NoNewPrivileges=yes',
        'PrivateTmp=yes',
        'ProtectSystem=strict',
        'ProtectHome=yes',
        'ReadWritePaths=/var/lib/iris',
        'ProtectKernelTunables=yes',
        'ProtectKernelModules=yes',
        'ProtectControlGroups=yes',
        'RestrictSUIDSGID=yes',
        'LockPersonality=yes',
        '',
        '[Install]',
        'WantedBy=multi-user.target',
        '',
      ].join('\n'),
    );
  });

  it('keeps a home under /home readable and writable: ProtectHome=read-only plus ReadWritePaths', () => {
    const unit = buildGatewayUnit({ ...base, home: '/home/me/.iris', envFile: '/home/me/.iris/gateway.env', extraWritablePaths: ['/srv/checkout'] });
    expect(unit).toContain('\nProtectHome=read-only\nReadWritePaths=/home/me/.iris /srv/checkout\n');
  });

  it('writes a user unit with only the options a user manager applies without privilege', () => {
    expect(buildGatewayUnit({ ...base, runAs: undefined, scope: 'user', home: '/home/me/.iris', envFile: '/home/me/.iris/gateway.env', node: '/home/me/.nvm/versions/node/v20.19.0/bin/node' })).toBe(
      [
        '# iris-gateway.service: the Iris webhook gateway for IRIS_HOME=/home/me/.iris',
        '# Written by `iris gateway install-service`. Run that again (with --force) to rewrite it, and keep',
        '# local changes in a drop-in (systemctl --user edit iris-gateway.service), which a rewrite leaves alone.',
        '[Unit]',
        'Description=Iris webhook gateway',
        '',
        '[Service]',
        'Type=simple',
        'Environment=IRIS_HOME=/home/me/.iris',
        'EnvironmentFile=/home/me/.iris/gateway.env',
        'ExecStart=/home/me/.nvm/versions/node/v20.19.0/bin/node /opt/iris/bin/iris gateway run',
        'Restart=on-failure',
        'RestartSec=5',
        'RestartPreventExitStatus=2',
        'KillMode=mixed',
        'TimeoutStopSec=30',
        'UMask=0077',
        'NoNewPrivileges=yes',
        '',
        '[Install]',
        'WantedBy=default.target',
        '',
      ].join('\n'),
    );
  });

  it('quotes and escapes paths with spaces, quotes, backslashes, % and $ as systemd reads them', () => {
    const home = '/srv/my "iris" 100%';
    const unit = buildGatewayUnit({ ...base, home, envFile: `${home}/gateway.env`, irisBin: '/opt/$HOME\\iris/bin/iris' });
    expect(unit).toContain('\nEnvironment="IRIS_HOME=/srv/my \\"iris\\" 100%%"\n');
    expect(unit).toContain('\nEnvironmentFile=/srv/my "iris" 100%%/gateway.env\n');
    expect(unit).toContain('\nExecStart=/usr/bin/node "/opt/$$HOME\\\\iris/bin/iris" gateway run\n');
    expect(unit).toContain('\nReadWritePaths="/srv/my \\"iris\\" 100%%"\n');
  });

  it('leaves /tmp shared when the home lives there', () => {
    const unit = buildGatewayUnit({ ...base, home: '/tmp/iris home', envFile: '/tmp/iris home/gateway.env' });
    expect(unit).not.toContain('PrivateTmp');
    expect(unit).toContain('\nReadWritePaths="/tmp/iris home"\n');
  });
});

describe('protectHomeFor and privateTmpFor', () => {
  it.each([
    [['/var/lib/iris', '/usr/bin/node'], 'yes'],
    [['/home/me/.iris'], 'read-only'],
    [['/root/.iris'], 'read-only'],
    [['/var/lib/iris', '/root/.nvm/versions/node/v20/bin/node'], 'read-only'],
    [['/run/user/1000/iris'], 'read-only'],
    [['/homestead/iris'], 'yes'],
  ] as const)('%j → ProtectHome=%s', (paths, expected) => {
    expect(protectHomeFor(paths)).toBe(expected);
  });

  it.each([
    [['/var/lib/iris'], true],
    [['/tmp/x'], false],
    [['/var/tmp/x'], false],
    [['/tmpfoo/x'], true],
  ] as const)('%j → PrivateTmp %s', (paths, expected) => {
    expect(privateTmpFor(paths)).toBe(expected);
  });
});
