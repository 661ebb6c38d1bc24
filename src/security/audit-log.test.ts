import { readFile, writeFile } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveHomePaths } from '../config/home.js';
import { makeTempDir, removeDir } from '../../test/helpers/iris.js';
import { auditLine, createAuditLog } from './audit-log.js';

const AT = new Date('2026-11-28T12:00:00.000Z');

describe('audit lines', () => {
  it('are one JSON object with the fixed fields, in order', () => {
    expect(auditLine({ actor: 'password', from: '127.0.0.1', action: 'sign_in', ok: true }, AT)).toBe(
      '{"time":"2026-11-28T12:00:00.000Z","actor":"password","from":"127.0.0.1","action":"sign_in","target":"","ok":true}\n',
    );
    expect(JSON.parse(auditLine({ actor: 'telegram:42', from: 'telegram:42', action: 'chat.sethome', target: '42', ok: false, reason: 'not an owner' }, AT))).toEqual({
      time: '2026-11-28T12:00:00.000Z', actor: 'telegram:42', from: 'telegram:42', action: 'chat.sethome', target: '42', ok: false, reason: 'not an owner',
    });
  });

  it('redact credential-shaped text and cut long fields', () => {
    const line = auditLine({ actor: 'x', from: 'y', action: 'model.set', target: `openai sk-live-0123456789abcdef ${'z'.repeat(500)}`, ok: true, reason: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc' }, AT);
    expect(line).not.toContain('sk-live-0123456789abcdef');
    expect(line).not.toContain('eyJhbGciOiJIUzI1NiJ9');
    expect((JSON.parse(line) as { target: string }).target.length).toBeLessThanOrEqual(201);
    expect(line.split('\n')).toHaveLength(2);
  });
});

describe('the audit log file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir('iris-audit-');
  });
  afterEach(() => removeDir(dir));

  it('appends lines at mode 0600 and rotates by size', async () => {
    const paths = resolveHomePaths({ IRIS_HOME: dir });
    const log = createAuditLog(paths, { rotation: { maxBytes: 300, keep: 2 }, now: () => AT });
    for (let i = 0; i < 4; i++) log.write({ actor: 'password', from: '127.0.0.1', action: `write.${i}`, ok: true });
    const file = join(paths.logsDir, 'audit.log');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const current = (await readFile(file, 'utf8')).trim().split('\n');
    const rotated = (await readFile(`${file}.1`, 'utf8')).trim().split('\n');
    expect([...rotated, ...current].map((line) => (JSON.parse(line) as { action: string }).action)).toEqual(['write.0', 'write.1', 'write.2', 'write.3']);
  });

  it('never throws: a line it cannot write is reported and the caller goes on', async () => {
    const paths = resolveHomePaths({ IRIS_HOME: dir });
    await writeFile(join(dir, 'logs'), 'a file where the folder should be');
    const errors: unknown[] = [];
    const log = createAuditLog(paths, { onError: (err) => errors.push(err) });
    expect(() => log.write({ actor: 'a', from: 'b', action: 'c', ok: true })).not.toThrow();
    expect(errors).toHaveLength(1);
  });
});
