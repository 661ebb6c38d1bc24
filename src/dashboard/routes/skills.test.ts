import { describe, expect, it } from 'vitest';
import { installTarget } from './skills.js';

describe('what the Skills page may install', () => {
  it('takes a hub name or an http(s) URL, with force when asked', () => {
    expect(installTarget({ name: 'pdf-tools' })).toEqual({ ok: true, target: 'pdf-tools', force: false });
    expect(installTarget({ source: 'https://hub.example/pdf/SKILL.md', force: true })).toEqual({ ok: true, target: 'https://hub.example/pdf/SKILL.md', force: true });
  });

  it('refuses a bad name, a path, both or neither, and unknown keys', () => {
    expect(installTarget({ name: '../x' })).toMatchObject({ ok: false, error: expect.stringContaining('skill name "../x" must match') as string });
    expect(installTarget({ source: '/etc/passwd' })).toMatchObject({ ok: false, error: expect.stringContaining('http(s) URL') as string });
    expect(installTarget({ source: 'file:///etc/passwd' })).toMatchObject({ ok: false });
    expect(installTarget({ name: 'a', source: 'https://x.example/a.md' })).toMatchObject({ ok: false, error: expect.stringContaining('exactly one') as string });
    expect(installTarget({})).toMatchObject({ ok: false });
    expect(installTarget({ name: 'a', run: true })).toMatchObject({ ok: false });
    expect(installTarget(['a'])).toMatchObject({ ok: false });
  });
});
