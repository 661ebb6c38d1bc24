// The owner commands against a real home (config.yaml, state.db, logs/audit.log in a temp dir):
// what each answers, what it changes, and the one audit line each leaves, refused or run, ok or not.
// The model switch itself is the runner's (it needs a runtime); here it is a stub.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelSwitch } from '../agent/model-switch.js';
import { resolveHomePaths, type HomePaths } from '../config/home.js';
import { configSchema } from '../config/schema.js';
import { auditLogPath, createAuditLog } from '../security/audit-log.js';
import { openSqliteStore } from '../store/sqlite-store.js';
import type { InboundRecord } from '../store/platform-types.js';
import type { Store } from '../store/types.js';
import { APPROVE_USAGE, parseChatCommand, type ChatCommand } from './chat-commands.js';
import { commandTarget, createOwnerCommands, ownerAuditEntry } from './owner-commands.js';

const NOW = 1_700_000_000_000;
const HOUR = 3_600_000;
const CONFIG = 'model:\n  provider: openai\n  default: main-m\nplatforms:\n  telegram:\n    enabled: true\n    extra:\n      owners: [111]\n';
const config = configSchema.parse({});

let dir: string;
let paths: HomePaths;
let store: Store;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'iris-owner-'));
  paths = resolveHomePaths({ IRIS_HOME: dir });
  await writeFile(paths.configPath, CONFIG, { mode: 0o600 });
  store = await openSqliteStore(paths.statePath);
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

function record(text: string, over: Partial<InboundRecord> = {}): InboundRecord {
  return {
    platform: 'telegram', chatId: '-100', threadId: null, messageId: '1', userId: '111', userName: 'Olga', text, isDirect: false, receivedAt: NOW,
    id: 1, sessionKey: 'telegram:-100/111', state: 'running', attempts: 1, error: null, updatedAt: NOW, ...over,
  };
}

const command = (text: string): ChatCommand => {
  const parsed = parseChatCommand(text);
  if (!parsed) throw new Error(`not a command: ${text}`);
  return parsed;
};

async function auditLines(): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(auditLogPath(paths), 'utf8').catch(() => '');
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
}

function owners(switchModel: (line: string) => Promise<ModelSwitch> = () => Promise.reject(new Error('no model switch expected'))) {
  const homes: string[] = [];
  const commands = createOwnerCommands({
    paths,
    store,
    log: { debug() {}, info() {}, warn() {}, error() {} },
    audit: createAuditLog(paths, { now: () => new Date(NOW) }),
    nowMs: () => NOW,
    switchModel: (_record, line) => switchModel(line),
    onHomeChannel: (platform, chatId) => homes.push(`${platform}:${chatId}`),
  });
  return { commands, homes };
}

describe('ownerAuditEntry and commandTarget', () => {
  it('names the user and the chat on their platform, and the action as chat.<action>', () => {
    expect(ownerAuditEntry({ platform: 'sms', userId: '+15551234567', chatId: '+15551234567' }, 'sethome', { target: '+15551234567', ok: true })).toEqual({
      actor: 'sms:+15551234567',
      from: 'sms:+15551234567',
      action: 'chat.sethome',
      target: '+15551234567',
      ok: true,
    });
    expect(ownerAuditEntry({ platform: 'telegram', userId: '7', chatId: '-100' }, 'approve', { target: '', ok: false, reason: 'not an owner' })).toMatchObject({ action: 'chat.approve', ok: false, reason: 'not an owner' });
  });
  it('the target is the chat, the model asked for, and never the pairing code', () => {
    expect(commandTarget('sethome', command('/sethome'), '-100')).toBe('-100');
    expect(commandTarget('model_global', command('/model other-m --global'), '-100')).toBe('other-m');
    expect(commandTarget('model_global', command('/model other-m --provider anthropic --global'), '-100')).toBe('anthropic/other-m');
    expect(commandTarget('model_global', command('/model --global'), '-100')).toBe('');
    expect(commandTarget('approve', command('/approve K7Q2M9XD'), '-100')).toBe('');
  });
});

describe('refused', () => {
  it('answers the sentence, changes nothing, and writes one line with reason "not an owner"', async () => {
    const { commands, homes } = owners();
    const before = await readFile(paths.configPath);
    await store.platforms.requestPairing({ platform: 'telegram', userId: '333', userName: null, chatId: '333', code: 'K7Q2M9XD', createdAt: NOW, expiresAt: NOW + HOUR }, NOW);
    const who = record('', { userId: '222' });
    expect(commands.refuse('sethome', 'Only an owner can use /sethome.', command('/sethome'), who)).toEqual({ kind: 'answered', text: 'Only an owner can use /sethome.' });
    commands.refuse('approve', 'Only an owner can use /approve.', command('/approve K7Q2M9XD'), who);
    commands.refuse('model_global', 'Only an owner can use /model --global.', command('/model other-m --global'), who);
    expect(await readFile(paths.configPath)).toEqual(before);
    expect(homes).toEqual([]);
    expect(await store.platforms.isApproved('telegram', '333')).toBe(false);
    const base = { time: new Date(NOW).toISOString(), actor: 'telegram:222', from: 'telegram:-100', ok: false, reason: 'not an owner' };
    expect(await auditLines()).toEqual([
      { ...base, action: 'chat.sethome', target: '-100' },
      { ...base, action: 'chat.approve', target: '' },
      { ...base, action: 'chat.model_global', target: 'other-m' },
    ]);
  });
});

describe('run by an owner', () => {
  it('/sethome writes home_channel, tells the gateway, and audits the chat', async () => {
    const { commands, homes } = owners();
    const reply = await commands.run('sethome', command('/sethome'), record('/sethome'), config);
    expect(reply).toEqual({ kind: 'answered', text: 'This chat is now the home channel for telegram: deliveries without a chat come here.' });
    expect(await readFile(paths.configPath, 'utf8')).toContain('home_channel: "-100"');
    expect(homes).toEqual(['telegram:-100']);
    expect(await auditLines()).toEqual([{ time: new Date(NOW).toISOString(), actor: 'telegram:111', from: 'telegram:-100', action: 'chat.sethome', target: '-100', ok: true }]);
  });

  it('/sethome that cannot write config.yaml fails, and the line says so', async () => {
    await writeFile(paths.configPath, 'model: [unclosed\n');
    const { commands, homes } = owners();
    const reply = await commands.run('sethome', command('/sethome'), record('/sethome'), config);
    expect(reply.kind).toBe('failed');
    expect(reply.text).toMatch(/^The home channel was not changed: /);
    expect(homes).toEqual([]);
    expect(await auditLines()).toEqual([expect.objectContaining({ action: 'chat.sethome', target: '-100', ok: false, reason: expect.any(String) as string })]);
  });

  it('/approve <code> approves that platform\'s pending user; the line names the user, never the code', async () => {
    await store.platforms.requestPairing({ platform: 'telegram', userId: '333', userName: 'Sam', chatId: '333', code: 'K7Q2M9XD', createdAt: NOW, expiresAt: NOW + HOUR }, NOW);
    const { commands } = owners();
    const reply = await commands.run('approve', command('/approve k7q2m9xd'), record('/approve k7q2m9xd'), config);
    expect(reply).toEqual({ kind: 'answered', text: 'Approved telegram user 333 (Sam): their messages now go to the agent.' });
    expect(await store.platforms.isApproved('telegram', '333')).toBe(true);
    expect(await store.platforms.pendingPairings(NOW)).toEqual([]);
    const lines = await auditLines();
    expect(lines).toEqual([{ time: new Date(NOW).toISOString(), actor: 'telegram:111', from: 'telegram:-100', action: 'chat.approve', target: '333', ok: true }]);
    expect(JSON.stringify(lines).toUpperCase()).not.toContain('K7Q2M9XD');
  });

  it('/approve with a code of another platform, an unknown or expired one: nobody is approved, the line has no code', async () => {
    await store.platforms.requestPairing({ platform: 'signal', userId: '+15550000001', userName: null, chatId: '+15550000001', code: 'SIGNAL22', createdAt: NOW, expiresAt: NOW + HOUR }, NOW);
    await store.platforms.requestPairing({ platform: 'telegram', userId: '444', userName: null, chatId: '444', code: 'OLDCODE2', createdAt: NOW - 2 * HOUR, expiresAt: NOW - HOUR }, NOW - 2 * HOUR);
    const { commands } = owners();
    for (const code of ['SIGNAL22', 'NOPE2345', 'OLDCODE2']) {
      const reply = await commands.run('approve', command(`/approve ${code}`), record(`/approve ${code}`), config);
      expect(reply).toEqual({ kind: 'answered', text: `No pending pairing code ${code} on telegram: it expired (codes last an hour) or was never issued.` });
    }
    expect(await store.platforms.isApproved('signal', '+15550000001')).toBe(false);
    expect(await store.platforms.isApproved('telegram', '444')).toBe(false);
    const lines = await auditLines();
    expect(lines.map((l) => [l.action, l.target, l.ok, l.reason])).toEqual(Array(3).fill(['chat.approve', '', false, 'unknown or expired code']));
    for (const code of ['SIGNAL22', 'NOPE2345', 'OLDCODE2']) expect(JSON.stringify(lines)).not.toContain(code);
  });

  it('/approve without a code answers the usage, and is audited as not done', async () => {
    const { commands } = owners();
    expect(await commands.run('approve', command('/approve'), record('/approve'), config)).toEqual({ kind: 'answered', text: APPROVE_USAGE });
    expect(APPROVE_USAGE).toBe('Usage: /approve <code>, with the pairing code the new user was sent.');
    expect(await auditLines()).toEqual([expect.objectContaining({ action: 'chat.approve', target: '', ok: false, reason: 'no code given' })]);
  });

  it('/model --global: the line says what the switch wrote, or why not; a throw is audited and passed on', async () => {
    const seen: string[] = [];
    const results: ModelSwitch[] = [
      { text: 'session now on openai · other-m', global: { ok: true, model: 'openai/other-m' } },
      { text: 'unknown provider "acme"', global: { ok: false, model: 'x', reason: 'unknown provider "acme"' } },
      { text: 'usage: /model <name-or-alias> [--provider <provider>] [--global]' },
    ];
    const { commands } = owners(async (line) => {
      seen.push(line);
      const next = results.shift();
      if (!next) throw new Error('boom');
      return next;
    });
    expect(await commands.run('model_global', command('/model other-m --global'), record(''), config)).toEqual({ kind: 'answered', text: 'session now on openai · other-m' });
    await commands.run('model_global', command('/model x --provider acme --global'), record(''), config);
    await commands.run('model_global', command('/model --global'), record(''), config);
    await expect(commands.run('model_global', command('/model y --global'), record(''), config)).rejects.toThrow('boom');
    expect(seen).toEqual(['/model other-m --global', '/model x --provider acme --global', '/model --global', '/model y --global']);
    expect((await auditLines()).map((l) => [l.action, l.target, l.ok, l.reason])).toEqual([
      ['chat.model_global', 'openai/other-m', true, undefined],
      ['chat.model_global', 'x', false, 'unknown provider "acme"'],
      ['chat.model_global', '', false, 'not a valid /model --global command'],
      ['chat.model_global', 'y', false, 'internal error'],
    ]);
  });
});
