import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GatewayStatus } from '../routing/status-report.js';
import { findGateway, gatewayAddressPath, locateGateway, parseGatewayAddress, removeGatewayAddress, writeGatewayAddress } from './address-file.js';

const PID_FILE = '/home/me/.iris/gateway.pid';
const CONFIGURED = { host: '127.0.0.1', port: 8644 };
const running = (pid: number): GatewayStatus => ({ state: 'running', pid, pid_file: PID_FILE });

describe('parseGatewayAddress', () => {
  it('reads what the gateway writes', () => {
    expect(parseGatewayAddress('{"pid":41,"host":"0.0.0.0","port":50123}\n')).toEqual({ pid: 41, host: '0.0.0.0', port: 50123 });
  });

  it.each([
    ['missing', undefined],
    ['torn', '{"pid":41,"ho'],
    ['not an object', '[1]'],
    ['port 0', '{"pid":41,"host":"0.0.0.0","port":0}'],
    ['port too high', '{"pid":41,"host":"0.0.0.0","port":70000}'],
    ['pid as text', '{"pid":"41","host":"0.0.0.0","port":1}'],
    ['empty host', '{"pid":41,"host":"","port":1}'],
  ])('%s: nothing', (_name, text) => {
    expect(parseGatewayAddress(text)).toBeUndefined();
  });
});

describe('locateGateway', () => {
  it('a running gateway is reached where it said it listens', () => {
    expect(locateGateway(running(41), { pid: 41, host: '0.0.0.0', port: 50123 }, CONFIGURED)).toEqual({
      state: 'running',
      pid: 41,
      host: '0.0.0.0',
      port: 50123,
      url: 'http://127.0.0.1:50123',
      source: 'address_file',
    });
  });

  it('an address file of another pid (a dead gateway) is ignored: the configured listener', () => {
    expect(locateGateway(running(42), { pid: 41, host: '0.0.0.0', port: 50123 }, CONFIGURED)).toEqual({
      state: 'running',
      pid: 42,
      host: '127.0.0.1',
      port: 8644,
      url: 'http://127.0.0.1:8644',
      source: 'config',
    });
    expect(locateGateway(running(42), undefined, CONFIGURED)).toMatchObject({ source: 'config', url: 'http://127.0.0.1:8644' });
  });

  it('no running gateway: not running, with why, whatever the address file says', () => {
    const address = { pid: 41, host: '127.0.0.1', port: 8644 };
    expect(locateGateway({ state: 'not_running', pid_file: PID_FILE }, address, CONFIGURED)).toEqual({ state: 'not_running', why: `no ${PID_FILE}` });
    expect(locateGateway({ state: 'stale_pid_file', pid: 41, pid_file: PID_FILE }, address, CONFIGURED)).toEqual({
      state: 'not_running',
      why: `${PID_FILE} names pid 41, which is not running`,
    });
    expect(locateGateway({ state: 'bad_pid_file', pid_file: PID_FILE }, address, CONFIGURED)).toEqual({ state: 'not_running', why: `${PID_FILE} is unreadable` });
  });
});

describe('the file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'iris-address-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('is written 0600 and removed only by its own pid', async () => {
    const paths = { dir };
    await writeGatewayAddress(paths, { pid: process.pid, host: '127.0.0.1', port: 5000 });
    expect(await readFile(gatewayAddressPath(paths), 'utf8')).toBe(`{"pid":${process.pid},"host":"127.0.0.1","port":5000}\n`);
    expect((await stat(gatewayAddressPath(paths))).mode & 0o777).toBe(0o600);
    await removeGatewayAddress(paths, process.pid + 1);
    expect(await readFile(gatewayAddressPath(paths), 'utf8')).toContain('"port":5000');
    await removeGatewayAddress(paths);
    await expect(stat(gatewayAddressPath(paths))).rejects.toMatchObject({ code: 'ENOENT' });
    await removeGatewayAddress(paths); // nothing there: no error
  });

  it('findGateway: this process as the running gateway, at its recorded port', async () => {
    const paths = { dir };
    await writeFile(join(dir, 'gateway.pid'), `${process.pid}\n`);
    await writeGatewayAddress(paths, { pid: process.pid, host: '0.0.0.0', port: 5001 });
    expect(await findGateway(paths, CONFIGURED)).toEqual({ state: 'running', pid: process.pid, host: '0.0.0.0', port: 5001, url: 'http://127.0.0.1:5001', source: 'address_file' });
    await rm(join(dir, 'gateway.pid'));
    expect(await findGateway(paths, CONFIGURED)).toEqual({ state: 'not_running', why: `no ${join(dir, 'gateway.pid')}` });
  });
});
