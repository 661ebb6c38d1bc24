// `iris pairing` as a subprocess against a temp IRIS_HOME. The gateway stores pairing requests when
// a stranger writes to the bot; here the test stores them itself (requestPairing on state.db), then
// checks what the CLI prints, its exit codes, and what approve and revoke leave in the store.
import { access, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PlatformName } from '../../src/domain/platforms.js';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/types.js';
import { parseJson } from '../helpers/documents.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const PLATFORMS = 'platforms: telegram, discord, slack, signal, sms';

let dir: string;
let home: string;
beforeEach(async () => {
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
});
afterEach(() => removeDir(dir));

const iris = (args: string[], at = home) => runIris(args, { home: at });

async function withStore<T>(work: (store: Store) => Promise<T>, at = home): Promise<T> {
  const store = await openSqliteStore(join(at, 'state.db'));
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** A request as the gateway stores it; `expiresIn` from now. Returns its times for the JSON. */
async function request(platform: PlatformName, userId: string, userName: string | null, code: string, expiresIn: number, at = home) {
  const now = Date.now();
  const stored = { platform, userId, userName, chatId: userId, code, createdAt: now - HOUR + expiresIn, expiresAt: now + expiresIn };
  await withStore((store) => store.platforms.requestPairing(stored, now), at);
  return stored;
}

/** A JSON document whose shape the assertion after it checks. */
const document = (text: string): unknown => parseJson(text);

const isApproved = (platform: PlatformName, userId: string, at = home) => withStore((store) => store.platforms.isApproved(platform, userId), at);

describe('iris pairing without a state.db', () => {
  it('lists nothing, approves and revokes nothing, and creates no state.db', async () => {
    expect(await iris(['pairing', 'list'])).toEqual({ code: 0, stdout: 'pending codes: none\n\napproved users: none\n', stderr: '' });
    const json = await iris(['pairing', 'list', '--json']);
    expect(json.code).toBe(0);
    expect(parseJson(json.stdout)).toEqual({ pending: [], approved: [] });

    const approve = await iris(['pairing', 'approve', 'telegram', 'k7q2m9xd']);
    expect(approve).toEqual({
      code: 1,
      stdout: '',
      stderr: 'iris: error: no pending pairing code K7Q2M9XD on telegram: it expired (codes last an hour) or was never issued; iris pairing list shows the pending ones\n',
    });
    const revoke = await iris(['pairing', 'revoke', 'telegram', '4242']);
    expect(revoke).toEqual({
      code: 1,
      stdout: '',
      stderr: 'iris: error: telegram user 4242 is not approved; nothing to revoke (iris pairing list shows the approved users)\n',
    });
    await expect(access(join(home, 'state.db'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('iris pairing with requests waiting', () => {
  it('lists the pending codes (not the expired one) and the approved users, in two sections', async () => {
    const ada = await request('telegram', '4242', 'Ada\nLovelace', 'K7Q2M9XD', 30 * MINUTE + 30_000);
    const sms = await request('sms', '+15551234567', null, 'ZX4P8N2R', 10 * MINUTE + 30_000);
    await request('signal', '+15557654321', 'Old', 'EXPIRED2', -MINUTE);

    const list = await iris(['pairing', 'list']);
    expect(list.stderr).toBe('');
    expect(list.code).toBe(0);
    // Oldest first: the SMS request was made 20 minutes before Ada's.
    expect(list.stdout).toBe(
      [
        'pending codes (iris pairing approve <platform> <code>):',
        'PLATFORM  CODE      USER          NAME          CHAT          EXPIRES IN',
        'sms       ZX4P8N2R  +15551234567                +15551234567  10m',
        'telegram  K7Q2M9XD  4242          Ada Lovelace  4242          30m',
        '',
        'approved users: none',
        '',
      ].join('\n'),
    );

    const json = await iris(['pairing', 'list', '--json']);
    expect(json.code).toBe(0);
    expect(parseJson(json.stdout)).toEqual({
      pending: [
        { platform: 'sms', code: 'ZX4P8N2R', user_id: '+15551234567', user_name: null, chat_id: '+15551234567', created_at: new Date(sms.createdAt).toISOString(), expires_at: new Date(sms.expiresAt).toISOString() },
        { platform: 'telegram', code: 'K7Q2M9XD', user_id: '4242', user_name: 'Ada\nLovelace', chat_id: '4242', created_at: new Date(ada.createdAt).toISOString(), expires_at: new Date(ada.expiresAt).toISOString() },
      ],
      approved: [],
    });

    const onlySms = await iris(['pairing', 'list', '--platform', 'sms', '--json']);
    expect((document(onlySms.stdout) as { pending: Array<{ code: string }> }).pending.map((p) => p.code)).toEqual(['ZX4P8N2R']);
    expect(await iris(['pairing', 'list', '--platform', 'discord'])).toEqual({ code: 0, stdout: 'pending codes: none\n\napproved users: none\n', stderr: '' });
  });

  it('approves a code typed in any case: the user is approved, their code is spent, the list shows them', async () => {
    await request('telegram', '4242', 'Ada', 'K7Q2M9XD', 30 * MINUTE);
    await request('sms', '+15551234567', null, 'ZX4P8N2R', 30 * MINUTE);

    expect(await iris(['pairing', 'approve', 'telegram', ' k7q2M9xd '])).toEqual({ code: 0, stdout: 'approved telegram user 4242 (Ada)\n', stderr: '' });
    expect(await isApproved('telegram', '4242')).toBe(true);
    expect(await isApproved('sms', '+15551234567')).toBe(false);

    const json = await iris(['pairing', 'approve', 'sms', 'zx4p8n2r', '--json']);
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    const approved = parseJson(json.stdout) as Record<string, unknown>;
    expect(Object.keys(approved)).toEqual(['platform', 'user_id', 'user_name', 'approved_at']);
    expect(approved).toMatchObject({ platform: 'sms', user_id: '+15551234567', user_name: null });
    expect(approved.approved_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(await isApproved('sms', '+15551234567')).toBe(true);

    // The code is spent: approving it again is refused.
    const again = await iris(['pairing', 'approve', 'telegram', 'K7Q2M9XD']);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('iris: error: no pending pairing code K7Q2M9XD on telegram: it expired (codes last an hour) or was never issued; iris pairing list shows the pending ones\n');

    const list = await iris(['pairing', 'list']);
    expect(list.stdout).toBe(
      [
        'pending codes: none',
        '',
        'approved users (iris pairing revoke <platform> <user>):',
        'PLATFORM  USER          NAME  APPROVED',
        'sms       +15551234567        just now',
        'telegram  4242          Ada   just now',
        '',
      ].join('\n'),
    );
    const listed = document((await iris(['pairing', 'list', '--json'])).stdout) as { pending: unknown[]; approved: Array<Record<string, unknown>> };
    expect(listed.pending).toEqual([]);
    expect(listed.approved[0]).toEqual({ platform: 'sms', user_id: '+15551234567', user_name: null, approved_at: approved.approved_at });
    expect(listed.approved[1]).toMatchObject({ platform: 'telegram', user_id: '4242', user_name: 'Ada' });
    expect(listed.approved).toHaveLength(2);
    const telegramOnly = document((await iris(['pairing', 'list', '--platform', 'telegram', '--json'])).stdout) as { approved: Array<{ user_id: string }> };
    expect(telegramOnly.approved.map((u) => u.user_id)).toEqual(['4242']);
  });

  it('refuses an expired code, a code of another platform and an unknown one (exit 1); --json also prints the refusal', async () => {
    await request('telegram', '4242', 'Ada', 'OLDCODE2', -1);
    await request('signal', '+15557654321', null, 'SIGNAL22', 30 * MINUTE);

    const expired = await iris(['pairing', 'approve', 'telegram', 'OLDCODE2']);
    expect(expired.code).toBe(1);
    expect(expired.stderr).toMatch(/^iris: error: no pending pairing code OLDCODE2 on telegram: it expired/);
    expect((await iris(['pairing', 'approve', 'telegram', 'SIGNAL22'])).code).toBe(1);

    const json = await iris(['pairing', 'approve', 'telegram', 'nope', '--json']);
    expect(json.code).toBe(1);
    expect(parseJson(json.stdout)).toEqual({
      ok: false,
      code: 'unknown_code',
      error: 'no pending pairing code NOPE on telegram: it expired (codes last an hour) or was never issued; iris pairing list shows the pending ones',
    });
    expect(await isApproved('telegram', '4242')).toBe(false);
    expect(await isApproved('signal', '+15557654321')).toBe(false);
  });

  it('revokes an approved user; revoking one who is not approved is exit 1 and says so', async () => {
    await request('telegram', '4242', 'Ada', 'K7Q2M9XD', 30 * MINUTE);
    await request('telegram', '777', 'Bob', 'B0BC0DE2', 30 * MINUTE);
    await iris(['pairing', 'approve', 'telegram', 'K7Q2M9XD']);
    await iris(['pairing', 'approve', 'telegram', 'B0BC0DE2']);

    expect(await iris(['pairing', 'revoke', 'telegram', '4242'])).toEqual({
      code: 0,
      stdout: 'revoked telegram user 4242: their messages start no run until they pair again\n',
      stderr: '',
    });
    expect(await isApproved('telegram', '4242')).toBe(false);
    expect(await isApproved('telegram', '777')).toBe(true);

    const json = await iris(['pairing', 'revoke', 'telegram', '777', '--json']);
    expect(json.code).toBe(0);
    expect(parseJson(json.stdout)).toEqual({ platform: 'telegram', user_id: '777', revoked: true });
    expect(await isApproved('telegram', '777')).toBe(false);

    expect(await iris(['pairing', 'revoke', 'telegram', '4242'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'iris: error: telegram user 4242 is not approved; nothing to revoke (iris pairing list shows the approved users)\n',
    });
    const refused = await iris(['pairing', 'revoke', 'signal', '4242', '--json']);
    expect(refused.code).toBe(1);
    expect(parseJson(refused.stdout)).toEqual({
      ok: false,
      code: 'not_approved',
      error: 'signal user 4242 is not approved; nothing to revoke (iris pairing list shows the approved users)',
    });
  });
});

describe('iris pairing input errors', () => {
  it('an unknown platform is a usage error (exit 2) naming the platforms, and touches nothing', async () => {
    await request('telegram', '4242', 'Ada', 'K7Q2M9XD', 30 * MINUTE);
    for (const args of [
      ['pairing', 'approve', 'telegrm', 'K7Q2M9XD'],
      ['pairing', 'revoke', 'telegrm', '4242'],
      ['pairing', 'list', '--platform', 'telegrm'],
    ]) {
      expect(await iris(args), args.join(' ')).toEqual({ code: 2, stdout: '', stderr: `iris: error: unknown platform "telegrm" (${PLATFORMS})\n` });
    }
    expect(await isApproved('telegram', '4242')).toBe(false);
  });

  it('a missing argument is a usage error (exit 2)', async () => {
    expect((await iris(['pairing', 'approve', 'telegram'])).code).toBe(2);
    expect((await iris(['pairing', 'revoke'])).code).toBe(2);
    // The bare group is not a mistake: it prints its help, as `gh pr` does.
    const bare = await iris(['pairing']);
    expect(bare.code).toBe(0);
    expect(bare.stdout).toContain('Usage: iris pairing');
  });
});

describe('iris pairing with profiles', () => {
  it("works on the selected profile's state.db only", async () => {
    expect((await iris(['profile', 'create', 'work'])).code).toBe(0);
    const workHome = join(home, 'profiles', 'work');
    await request('telegram', '4242', 'Ada', 'K7Q2M9XD', 30 * MINUTE, workHome);

    // The default home has no such code.
    expect((await iris(['pairing', 'approve', 'telegram', 'K7Q2M9XD'])).code).toBe(1);
    expect(await iris(['-p', 'work', 'pairing', 'approve', 'telegram', 'K7Q2M9XD'])).toEqual({ code: 0, stdout: 'approved telegram user 4242 (Ada)\n', stderr: '' });
    expect(await isApproved('telegram', '4242', workHome)).toBe(true);
    expect(parseJson((await iris(['pairing', 'list', '--json'])).stdout)).toEqual({ pending: [], approved: [] });
  });
});
