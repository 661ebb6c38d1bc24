// The pretest step's decisions about Chromium and strace: present, install, or stop with one command.
import { describe, expect, it } from 'vitest';
import { decideBubblewrap, decideChromium, decideStrace } from '../../scripts/test-prerequisites.mjs';

const base = { path: '/usr/bin/chromium', custom: false, present: false, root: false, apt: true };

describe('decideChromium', () => {
  it('goes on when the browser is there', () => {
    expect(decideChromium({ ...base, present: true })).toEqual({ action: 'ok' });
    expect(decideChromium({ ...base, present: true, custom: true, path: '/opt/chrome/chrome' })).toEqual({ action: 'ok' });
  });

  it('installs it as root with apt-get', () => {
    expect(decideChromium({ ...base, root: true })).toEqual({ action: 'install' });
  });

  it('stops with the one command to run when it cannot install', () => {
    expect(decideChromium(base)).toEqual({
      action: 'stop',
      message: "the dashboard's browser tests need Chromium at /usr/bin/chromium, which is missing; run: sudo apt-get install -y --no-install-recommends chromium",
    });
    expect(decideChromium({ ...base, root: true, apt: false })).toEqual({
      action: 'stop',
      message: "the dashboard's browser tests need Chromium at /usr/bin/chromium, which is missing; run: install Chromium with your system's package manager and set IRIS_CHROMIUM to its binary",
    });
  });

  it('never installs over a wrong IRIS_CHROMIUM, even as root', () => {
    expect(decideChromium({ ...base, custom: true, root: true, path: '/nowhere/chrome' })).toEqual({
      action: 'stop',
      message: "IRIS_CHROMIUM is /nowhere/chrome, which is not an executable file; point it at a Chromium binary, or unset it to use Debian's /usr/bin/chromium",
    });
  });
});

describe('decideStrace', () => {
  it('goes on when strace is there, installs it as root with apt-get', () => {
    expect(decideStrace({ present: true, root: false, apt: false })).toEqual({ action: 'ok' });
    expect(decideStrace({ present: false, root: true, apt: true })).toEqual({ action: 'install' });
  });

  it('stops with the one command to run when it cannot install', () => {
    expect(decideStrace({ present: false, root: false, apt: true })).toEqual({
      action: 'stop',
      message: 'the ingest durability test needs strace at /usr/bin/strace, which is missing; run: sudo apt-get install -y --no-install-recommends strace',
    });
    expect(decideStrace({ present: false, root: true, apt: false })).toEqual({
      action: 'stop',
      message: "the ingest durability test needs strace at /usr/bin/strace, which is missing; run: install strace with your system's package manager (at /usr/bin/strace)",
    });
  });
});

describe('decideBubblewrap', () => {
  it('installs it as root with apt, else names the one command', () => {
    expect(decideBubblewrap({ present: true, root: false, apt: false })).toEqual({ action: 'ok' });
    expect(decideBubblewrap({ present: false, root: true, apt: true })).toEqual({ action: 'install' });
    expect(decideBubblewrap({ present: false, root: false, apt: true })).toEqual({
      action: 'stop',
      message: 'the terminal sandbox tests need bwrap at /usr/bin/bwrap, which is missing; run: sudo apt-get install -y --no-install-recommends bubblewrap',
    });
  });
});
