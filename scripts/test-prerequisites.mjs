// What `npm test` needs besides node_modules, checked before the suite runs (the pretest step):
// a Chromium for the dashboard's browser tests (test/e2e/dashboard-ui.test.ts). playwright-core
// downloads no browser, and nothing may be downloaded here but Debian's and npm's packages, so
// it is Debian's chromium. Missing: installed when this user is root with apt-get; otherwise the
// run stops at once with the one command to run. A browser test is never skipped silently.
//
// IRIS_CHROMIUM names another Chromium (a non-Debian system); the browser tests use it too.
//
// Also strace, for the test that proves a 202 leaves only after the fsync that covers its event
// (test/e2e/ingest-durability.test.ts), and bubblewrap, for the terminal sandbox's tests
// (test/e2e/sandbox.test.ts): Debian's packages, installed or named the same way.
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

export const STRACE = '/usr/bin/strace';
export const APT_INSTALL_STRACE = ['install', '-y', '-qq', '--no-install-recommends', 'strace'];
export const BWRAP = '/usr/bin/bwrap';
export const APT_INSTALL_BUBBLEWRAP = ['install', '-y', '-qq', '--no-install-recommends', 'bubblewrap'];

/**
 * What to do about a Debian package a test needs. Pure, like decideChromium.
 * @param {{ present: boolean, root: boolean, apt: boolean }} facts
 * @param {{ pkg: string, path: string, needs: string }} tool
 * @returns {{ action: 'ok' } | { action: 'install' } | { action: 'stop', message: string }}
 */
export function decidePackage(facts, tool) {
  if (facts.present) return { action: 'ok' };
  if (facts.root && facts.apt) return { action: 'install' };
  const command = facts.apt ? `sudo apt-get install -y --no-install-recommends ${tool.pkg}` : `install ${tool.pkg} with your system's package manager (at ${tool.path})`;
  return { action: 'stop', message: `${tool.needs} ${tool.pkg === 'bubblewrap' ? 'bwrap' : tool.pkg} at ${tool.path}, which is missing; run: ${command}` };
}

/** strace, for the ingest durability test. */
export function decideStrace(facts) {
  return decidePackage(facts, { pkg: 'strace', path: STRACE, needs: 'the ingest durability test needs' });
}

/** bubblewrap, for the terminal sandbox's tests. */
export function decideBubblewrap(facts) {
  return decidePackage(facts, { pkg: 'bubblewrap', path: BWRAP, needs: 'the terminal sandbox tests need' });
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

let aptUpdated = false;

/** Carries out one decision; true when the tool is there afterwards. */
function ensure(decision, what, aptArgs, path) {
  if (decision.action === 'ok') return true;
  if (decision.action === 'stop') {
    process.stderr.write(`test prerequisites: ${decision.message}\n`);
    return false;
  }
  process.stderr.write(`test prerequisites: installing ${what} (apt-get ${aptArgs.join(' ')})\n`);
  if (!aptUpdated) aptUpdated = run('apt-get', ['update', '-qq']);
  if (!aptUpdated || !run('apt-get', aptArgs) || !executable(path)) {
    process.stderr.write(`test prerequisites: installing ${what} failed (see above); run: apt-get update && apt-get ${aptArgs.join(' ')}\n`);
    return false;
  }
  return true;
}

function main() {
  const root = process.getuid?.() === 0;
  const apt = onPath('apt-get');
  const custom = Boolean(process.env.IRIS_CHROMIUM);
  const path = process.env.IRIS_CHROMIUM || DEFAULT_CHROMIUM;
  const chromium = ensure(decideChromium({ path, custom, present: executable(path), root, apt }), "Debian's chromium for the dashboard's browser tests", APT_INSTALL, path);
  const strace = ensure(decideStrace({ present: executable(STRACE), root, apt }), "Debian's strace for the ingest durability test", APT_INSTALL_STRACE, STRACE);
  const bwrap = ensure(decideBubblewrap({ present: executable(BWRAP), root, apt }), "Debian's bubblewrap for the terminal sandbox tests", APT_INSTALL_BUBBLEWRAP, BWRAP);
  return chromium && strace && bwrap ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = main();
