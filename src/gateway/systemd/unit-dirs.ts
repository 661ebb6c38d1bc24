// Where systemd looks for unit files we may write: the user manager's folder
// ($XDG_CONFIG_HOME/systemd/user, as systemd itself resolves it) and the system folder. The system
// folder can be moved with IRIS_SYSTEMD_DIR, so that tests (and packagers staging a root file
// system) never need root or touch /etc.
import { join } from 'node:path';
import type { Env } from '../../config/home.js';
import type { UnitScope } from './gateway-unit.js';

export const SYSTEM_UNIT_DIR = '/etc/systemd/system';

export function unitDir(scope: UnitScope, env: Env, homeDir: string): string {
  if (scope === 'system') return env.IRIS_SYSTEMD_DIR?.trim() || SYSTEM_UNIT_DIR;
  const config = env.XDG_CONFIG_HOME?.trim();
  // The XDG rule: a relative XDG_CONFIG_HOME is invalid and ignored.
  return join(config?.startsWith('/') ? config : join(homeDir, '.config'), 'systemd', 'user');
}

/** The systemctl/journalctl flag for a scope. */
export function scopeFlag(scope: UnitScope): string[] {
  return scope === 'user' ? ['--user'] : [];
}
