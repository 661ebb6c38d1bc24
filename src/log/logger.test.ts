import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test/helpers/iris.js';
import { resolveHomePaths } from '../config/home.js';
import { createLogger, logFilePath } from './logger.js';

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(() => removeDir(dir));

async function lines(path: string): Promise<Record<string, unknown>[]> {
  return (await readFile(path, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('createLogger', () => {
  it('writes JSON lines to logs/<name>.log at 0600 with secrets redacted', async () => {
    const paths = resolveHomePaths({ IRIS_HOME: join(dir, 'home') });
    const log = createLogger(paths, 'agent');
    log.info(
      {
        task: 'vision',
        api_key: 'sk-live-0123456789abcdef',
        headers: { authorization: 'Bearer abcdefghijklmnop', 'content-type': 'application/json' },
      },
      'calling with key sk-live-0123456789abcdef',
    );
    log.warn({ err: new Error('upstream said Bearer zyxwvutsrqponmlk') }, 'failed');
    const file = logFilePath(paths, 'agent');
    expect(file).toBe(join(paths.logsDir, 'agent.log'));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const [first, second] = await lines(file);
    expect(first).toMatchObject({
      level: 'info',
      log: 'agent',
      task: 'vision',
      api_key: '[redacted]',
      headers: { authorization: '[redacted]', 'content-type': 'application/json' },
      msg: 'calling with key sk-[redacted]',
    });
    expect(JSON.stringify(second)).not.toContain('zyxwvutsrqponmlk');
    expect(second).toMatchObject({ level: 'warn', msg: 'failed' });
    const raw = await readFile(file, 'utf8');
    expect(raw).not.toContain('0123456789abcdef');
    expect(raw).not.toContain('abcdefghijklmnop');
  });

  it('keeps agent and gateway logs apart', async () => {
    const paths = resolveHomePaths({ IRIS_HOME: join(dir, 'home') });
    createLogger(paths, 'gateway').info('listening');
    expect(await lines(logFilePath(paths, 'gateway'))).toEqual([
      expect.objectContaining({ level: 'info', log: 'gateway', msg: 'listening' }),
    ]);
  });
});
