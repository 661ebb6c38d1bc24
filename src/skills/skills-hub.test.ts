import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AskSlot, SlotText as SlotAnswer } from '../routing/strict-answer.js';
import { parseHubIndex, type HubEntry } from './hub-index.js';
import { checkSkillBytes, isSkillLocation, removeSkill, writeSkill } from './install.js';
import { prefilter, queryWords } from './prefilter.js';
import { parseRanking } from './ranking.js';
import { rankCandidates } from './search.js';
import { entryLocation, type ReadSource } from './source.js';
import { HUB_INDEX_MAX_BYTES, readHubs } from './hubs.js';

const entry = (name: string, description: string, tags: string[] = [], hub = 'hub-a'): HubEntry => ({ name, description, url: `${name}.md`, tags, hub });

describe('parseHubIndex', () => {
  it('reads entries, defaults tags to none and names the hub', () => {
    const parsed = parseHubIndex('h', JSON.stringify({ skills: [{ name: 'pdf-tools', description: 'Work  with\nPDFs', url: 'https://x/SKILL.md' }, { name: 'git', description: 'Git', url: 'g.md', tags: ['vcs'] }] }));
    expect(parsed).toEqual({
      ok: true,
      entries: [
        { name: 'pdf-tools', description: 'Work with PDFs', url: 'https://x/SKILL.md', tags: [], hub: 'h' },
        { name: 'git', description: 'Git', url: 'g.md', tags: ['vcs'], hub: 'h' },
      ],
      skipped: [],
    });
  });

  it('skips and names an entry that does not fit, keeping the others', () => {
    const parsed = parseHubIndex('h', JSON.stringify({ skills: [{ name: 'bad name', description: 'd', url: 'u' }, { name: 'ok', description: 'd', url: 'u' }, { name: 'x', url: 'u' }, 'text'] }));
    expect(parsed.ok && parsed.entries.map((e) => e.name)).toEqual(['ok']);
    expect(parsed.ok && parsed.skipped.map((s) => s.split(':')[0])).toEqual(['skills[0]', 'skills[2]', 'skills[3]']);
  });

  it.each([
    ['not json', 'the index is not JSON'],
    ['[]', 'the index is not {"skills":[…]}'],
    ['{"skills":{}}', 'the index is not {"skills":[…]}'],
  ])('refuses %s', (text, error) => {
    expect(parseHubIndex('h', text)).toEqual({ ok: false, error });
  });
});

describe('prefilter', () => {
  const entries = [
    entry('notes', 'Keep meeting notes in markdown'),
    entry('pdf-tools', 'Fill, split and merge PDF files'),
    entry('report-writer', 'Write reports, export to pdf', ['docs']),
    entry('weather', 'Forecasts'),
    entry('pdfium', 'Render pages'),
  ];

  it('splits the query into lower-case words', () => {
    expect(queryWords('Merge  PDF-files, merge!')).toEqual(['merge', 'pdf', 'files']);
  });

  it('ranks a name word over part of a name over a tag over the description, and drops non-matches', () => {
    expect(prefilter('pdf', entries).map((e) => e.name)).toEqual(['pdf-tools', 'pdfium', 'report-writer']);
    expect(prefilter('docs', entries).map((e) => e.name)).toEqual(['report-writer']);
    expect(prefilter('merge pdf', entries).map((e) => e.name)).toEqual(['pdf-tools', 'pdfium', 'report-writer']);
    expect(prefilter('zebra', entries)).toEqual([]);
  });

  it('keeps the hubs order on ties and stops at the limit', () => {
    const many = Array.from({ length: 30 }, (_, i) => entry(`s${i}`, 'shell helper'));
    expect(prefilter('shell', many, 3).map((e) => e.name)).toEqual(['s0', 's1', 's2']);
    expect(prefilter('shell', many)).toHaveLength(20);
  });
});

describe('parseRanking', () => {
  const known = new Set(['a', 'b']);
  it('reads results best first', () => {
    expect(parseRanking(' {"results":[{"name":"b","reason":"fits  well"},{"name":"a","reason":"also"}]} ', known)).toEqual({ ok: true, value: [{ name: 'b', reason: 'fits well' }, { name: 'a', reason: 'also' }] });
    expect(parseRanking('{"results":[]}', known)).toEqual({ ok: true, value: [] });
  });

  it('ignores keys the model adds, at the top and in a result', () => {
    expect(parseRanking('{"results":[{"name":"a","reason":"r","score":1}],"note":"x"}', known)).toEqual({ ok: true, value: [{ name: 'a', reason: 'r' }] });
  });

  it.each([
    ['```json\n{"results":[]}\n```', 'it is not JSON'],
    ['[{"name":"a","reason":"r"}]', 'it is not {"results":[{"name","reason"}]}, both strings'],
    ['{"results":[{"name":"a"}]}', 'it is not {"results":[{"name","reason"}]}, both strings (results.0.reason is missing or of the wrong type)'],
    ['{"results":[{"name":"c","reason":"r"}]}', '"c" is not in the list'],
    ['{"results":[{"name":"a","reason":"r"},{"name":"a","reason":"r"}]}', '"a" is listed twice'],
    ['{"results":[{"name":"a","reason":" "}]}', '"a" has an empty reason'],
  ])('refuses %s', (text, error) => {
    expect(parseRanking(text, known)).toEqual({ ok: false, error });
  });
});

function scripted(...answers: SlotAnswer[]): AskSlot & { calls: Array<{ system: string; messages: unknown[] }> } {
  const calls: Array<{ system: string; messages: unknown[] }> = [];
  const ask = async (system: string, messages: readonly unknown[]) => {
    calls.push({ system, messages: [...messages] });
    return answers[Math.min(calls.length - 1, answers.length - 1)] as SlotAnswer;
  };
  return Object.assign(ask as AskSlot, { calls });
}

describe('rankCandidates', () => {
  const entries = [entry('pdf-tools', 'PDF files'), entry('pdfium', 'pdf render'), entry('pdf-tools', 'PDF files too', [], 'hub-b')];

  it('orders the hits as the slot ranked them, with reasons, a name in two hubs twice', async () => {
    const ask = scripted({ ok: true, text: '{"results":[{"name":"pdfium","reason":"renders"},{"name":"pdf-tools","reason":"edits"}]}' });
    const outcome = await rankCandidates('pdf', entries, ask);
    expect(outcome.ranked).toBe(true);
    expect(outcome.hits.map((h) => [h.name, h.hub, h.reason])).toEqual([['pdfium', 'hub-a', 'renders'], ['pdf-tools', 'hub-a', 'edits'], ['pdf-tools', 'hub-b', 'edits']]);
    expect(ask.calls[0]?.messages).toEqual([{ role: 'user', content: 'Search:\npdf\n\nSkills:\n- pdf-tools: PDF files\n- pdfium: pdf render' }]);
  });

  it('falls back to the prefilter order with a warning', async () => {
    const outcome = await rankCandidates('pdf', entries, scripted({ ok: true, text: 'pdfium first' }));
    expect(outcome).toMatchObject({ ranked: false, warning: "the skills_hub slot's answer was malformed twice (it is not JSON); showing the prefilter order" });
    expect(outcome.hits.map((h) => h.name)).toEqual(['pdf-tools', 'pdf-tools', 'pdfium']);
    const failed = await rankCandidates('pdf', entries, scripted({ ok: false, error: 'no model' }));
    expect(failed.warning).toBe('the skills_hub slot failed: no model; showing the prefilter order');
  });

  it('does not ask the slot when nothing matches', async () => {
    const ask = scripted({ ok: true, text: '{"results":[]}' });
    expect(await rankCandidates('zebra', entries, ask)).toEqual({ hits: [], ranked: false });
    expect(ask.calls).toHaveLength(0);
  });
});

describe('install helpers', () => {
  it('tells a location from a name', () => {
    expect(['https://x/y', './s/SKILL.md', 'SKILL.md', 'pdf-tools'].map(isSkillLocation)).toEqual([true, true, true, false]);
  });

  it('resolves an entry url against its hub', () => {
    expect(entryLocation('https://hub.example/idx/index.json', 'pdf/SKILL.md')).toBe('https://hub.example/idx/pdf/SKILL.md');
    expect(entryLocation('/srv/hub/index.json', 'pdf/SKILL.md')).toBe('/srv/hub/pdf/SKILL.md');
    expect(entryLocation('/srv/hub/index.json', 'https://raw.example/SKILL.md')).toBe('https://raw.example/SKILL.md');
    expect(entryLocation('https://hub.example/index.json', 'file:///etc/passwd')).toBeUndefined();
    expect(entryLocation('https://hub.example/index.json', '/raw/SKILL.md')).toBe('https://hub.example/raw/SKILL.md');
  });

  it('checks the front matter and the expected name', () => {
    const text = Buffer.from('---\nname: pdf-tools\ndescription: PDFs\n---\nUse qpdf.\n');
    expect(checkSkillBytes(text)).toEqual({ ok: true, skill: { name: 'pdf-tools', description: 'PDFs', body: 'Use qpdf.' } });
    expect(checkSkillBytes(text, 'pdf')).toEqual({ ok: false, error: 'SKILL.md names the skill "pdf-tools", not "pdf"' });
    expect(checkSkillBytes(Buffer.from('---\nname: a b\ndescription: d\n---\n'))).toEqual({ ok: false, error: 'SKILL.md front matter: skill name "a b" must match ^[a-z0-9][a-z0-9._-]{0,63}$ (lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64) and cannot contain ".."' });
    expect(checkSkillBytes(Buffer.from('---\nname: ab\n---\n'))).toEqual({ ok: false, error: 'SKILL.md front matter has no description' });
    expect(checkSkillBytes(Buffer.from('no front matter'))).toEqual({ ok: false, error: 'SKILL.md has no front matter (it must start with a --- line)' });
    expect(checkSkillBytes(Buffer.from([0x2d, 0xff, 0xfe]))).toEqual({ ok: false, error: 'SKILL.md is not UTF-8 text' });
  });

  it('refuses a front matter name that would leave the skills folder', () => {
    for (const name of ['../evil', '/tmp/evil', 'a/b', 'Evil', '.hidden']) {
      const checked = checkSkillBytes(Buffer.from(`---\nname: "${name}"\ndescription: d\n---\n`));
      expect(checked).toEqual({ ok: false, error: `SKILL.md front matter: skill name ${JSON.stringify(name)} must match ^[a-z0-9][a-z0-9._-]{0,63}$ (lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64) and cannot contain ".."` });
    }
  });

  it('writeSkill and removeSkill throw for a bad name instead of touching a path outside', async () => {
    const base = await mkdtemp(join(tmpdir(), 'iris-install-'));
    try {
      const skills = join(base, 'skills');
      await expect(writeSkill(skills, '../evil', Buffer.from('x'), true)).rejects.toThrow('skill name "../evil" must match');
      await expect(removeSkill(skills, '..')).rejects.toThrow('skill name ".." must match');
      expect(await readdir(base)).toEqual([]);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});

describe('readHubs', () => {
  it('reads each hub alone: a failing one is named, the others answer, skipped entries are named', async () => {
    const files: Record<string, string> = {
      a: JSON.stringify({ skills: [{ name: 'one', description: 'd', url: 'u' }, { name: 'bad name', description: 'd', url: 'u' }] }),
      c: '{oops',
      d: JSON.stringify({ skills: [{ name: 'two', description: 'd', url: 'u' }] }),
    };
    const seen: Array<[string, number]> = [];
    const read: ReadSource = async (source, options) => {
      seen.push([source, options.maxBytes]);
      const text = files[source];
      return text === undefined ? { ok: false, error: `cannot read ${source}` } : { ok: true, bytes: Buffer.from(text) };
    };
    const listing = await readHubs(['a', 'b', 'c', 'd'], read);
    expect(listing.entries.map((e) => [e.hub, e.name])).toEqual([['a', 'one'], ['d', 'two']]);
    expect(listing.failed).toEqual([{ hub: 'b', error: 'cannot read b' }, { hub: 'c', error: 'the index is not JSON' }]);
    expect(listing.skipped).toEqual([{ hub: 'a', error: 'skills[1]: skill name "bad name" must match ^[a-z0-9][a-z0-9._-]{0,63}$ (lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64) and cannot contain ".."' }]);
    expect(seen).toEqual([['a', HUB_INDEX_MAX_BYTES], ['b', HUB_INDEX_MAX_BYTES], ['c', HUB_INDEX_MAX_BYTES], ['d', HUB_INDEX_MAX_BYTES]]);
  });
});
