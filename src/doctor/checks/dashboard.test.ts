import { describe, expect, it } from 'vitest';
import { checkDashboard } from './dashboard.js';

describe('the dashboard check', () => {
  it('says where a running dashboard listens and how it signs people in', () => {
    expect(checkDashboard({ running: { host: '0.0.0.0', port: 9119, loopback: false, signIn: 'password' }, passwordSet: true, proxy: undefined })).toEqual({
      id: 'dashboard', name: 'dashboard', status: 'ok', finding: 'running on 0.0.0.0:9119 (other machines can reach it); sign-in: the password',
    });
    expect(checkDashboard({ running: { host: '::1', port: 9119, loopback: true, signIn: 'token' }, passwordSet: false, proxy: undefined })?.finding).toBe(
      'running on [::1]:9119 (this machine only); sign-in: none (the page carries the token)',
    );
  });

  it('says what a non-loopback start would need or use', () => {
    expect(checkDashboard({ running: undefined, passwordSet: false, proxy: undefined })).toBeUndefined();
    expect(checkDashboard({ running: undefined, passwordSet: true, proxy: { header: 'X-Forwarded-User', from: ['127.0.0.1/32'] } })?.finding).toBe(
      'not running; it signs people in with the password or the X-Forwarded-User header from 127.0.0.1/32',
    );
  });

  it('warns when the trusted proxy range takes in everyone', () => {
    const check = checkDashboard({ running: undefined, passwordSet: false, proxy: { header: 'X-Forwarded-User', from: ['10.0.0.0/8', '0.0.0.0/0'] } });
    expect(check?.status).toBe('warn');
    expect(check?.finding).toBe('dashboard.trusted_proxy.from has 0.0.0.0/0: anyone who reaches the dashboard can sign in by sending X-Forwarded-User');
  });
});
