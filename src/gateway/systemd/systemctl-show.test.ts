import { describe, expect, it } from 'vitest';
import { describeServiceState, parseSystemctlShow } from './systemctl-show.js';
import { serviceJson, serviceLine } from './service-view.js';

describe('parseSystemctlShow', () => {
  it('reads the four properties in any order', () => {
    expect(parseSystemctlShow('MainPID=4242\nActiveState=active\nSubState=running\nUnitFileState=enabled\n')).toEqual({
      ok: true,
      state: { activeState: 'active', subState: 'running', unitFileState: 'enabled', mainPid: 4242 },
    });
  });

  it('reads a stopped unit that systemd has not loaded yet (no daemon-reload)', () => {
    expect(parseSystemctlShow('ActiveState=inactive\nSubState=dead\nUnitFileState=\nMainPID=0\n')).toEqual({
      ok: true,
      state: { activeState: 'inactive', subState: 'dead', unitFileState: '', mainPid: 0 },
    });
  });

  it('keeps a value that holds "=" and ignores lines that are not properties', () => {
    expect(parseSystemctlShow('ActiveState=failed\r\nnoise\nSubState=a=b\r\nMainPID=x\n')).toEqual({
      ok: true,
      state: { activeState: 'failed', subState: 'a=b', unitFileState: '', mainPid: 0 },
    });
  });

  it('says when there is no ActiveState', () => {
    expect(parseSystemctlShow('')).toEqual({ ok: false, reason: 'systemctl show printed no ActiveState' });
    expect(parseSystemctlShow('ActiveState=\n')).toEqual({ ok: false, reason: 'systemctl show printed no ActiveState' });
  });
});

describe('the status line and object', () => {
  const running = { activeState: 'active', subState: 'running', unitFileState: 'enabled', mainPid: 4242 };

  it('describes a state', () => {
    expect(describeServiceState('iris-gateway.service', running)).toBe('iris-gateway.service active (running), enabled');
    expect(describeServiceState('u', { activeState: 'inactive', subState: '', unitFileState: '', mainPid: 0 })).toBe('u inactive');
  });

  it('prints a known and an unknown service', () => {
    expect(serviceLine({ known: true, scope: 'user', unitPath: '/u', state: running })).toBe('service: iris-gateway.service active (running), enabled');
    expect(serviceLine({ known: false, scope: 'system', unitPath: '/s', reason: 'systemctl not found' })).toBe(
      'service: iris-gateway.service, systemd: unknown (systemctl not found)',
    );
    expect(serviceJson({ known: true, scope: 'user', unitPath: '/u', state: running })).toEqual({
      unit: 'iris-gateway.service',
      scope: 'user',
      unit_path: '/u',
      systemd: 'known',
      active_state: 'active',
      sub_state: 'running',
      unit_file_state: 'enabled',
      main_pid: 4242,
    });
    expect(serviceJson({ known: false, scope: 'system', unitPath: '/s', reason: 'r' })).toEqual({
      unit: 'iris-gateway.service',
      scope: 'system',
      unit_path: '/s',
      systemd: 'unknown',
      reason: 'r',
    });
  });
});
