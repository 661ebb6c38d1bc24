// What `npm test` needs besides node_modules, checked before the suite runs (the pretest step):
// a Chromium for the dashboard's browser tests (test/e2e/dashboard-ui.test.ts). playwright-core
// downloads no browser, and nothing may be downloaded here but Debian's and npm's packages, so
// it is Debian's chromium. Missing: installed when this user is root with apt-get; otherwise the
// run stops at once with the one command to run. A browser test is never skipped silently.
//
// IRIS_CHROMIUM names another Chromium (a non-Debian system); the browser tests use it too.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { pathToFileURL } from 'node:url';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';
export const APT_INSTALL = ['install', '-y', '-qq', '--no-install-recommends', 'chromium'];

/**
 * What to do about the browser. Pure: the facts in, the decision out.
 * @param {{ path: string, custom: boolean, present: boolean, root: boolean, apt: boolean }} facts
 * @returns {{ action: 'ok' } | { action: 'install' } | { action: 'stop', message: string }}
 */
export function decideChromium(facts) {
  if (facts.present) return { action: 'ok' };
  if (facts.custom) {
    return { action: 'stop', message: `IRIS_CHROMIUM is ${facts.path}, which is not an executable file; point it at a Chromium binary, or unset it to use Debian's ${DEFAULT_CHROMIUM}` };
  }
  if (facts.root && facts.apt) return { action: 'install' };
  const command = facts.apt
    ? `sudo apt-get install -y --no-install-recommends chromium`
    : `install Chromium with your system's package manager and set IRIS_CHROMIUM to its binary`;
  return { action: 'stop', message: `the dashboard's browser tests need Chromium at ${facts.path}, which is missing; run: ${command}` };
}

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return result.status === 0;
}

function main() {
  const custom = Boolean(process.env.IRIS_CHROMIUM);
  const path = process.env.IRIS_CHROMIUM || DEFAULT_CHROMIUM;
  const decision = decideChromium({ path, custom, present: executable(path), root: process.getuid?.() === 0, apt: onPath('apt-get') });
  if (decision.action === 'ok') return 0;
  if (decision.action === 'stop') {
    process.stderr.write(`test prerequisites: ${decision.message}\n`);
    return 1;
  }
  process.stderr.write(`test prerequisites: installing Debian's chromium for the dashboard's browser tests (apt-get ${APT_INSTALL.join(' ')})\n`);
  if (!run('apt-get', ['update', '-qq']) || !run('apt-get', APT_INSTALL) || !executable(path)) {
    process.stderr.write(`test prerequisites: installing chromium failed (see above); run: apt-get update && apt-get ${APT_INSTALL.join(' ')}\n`);
    return 1;
  }
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = main();
