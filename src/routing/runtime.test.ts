import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../../test/fakes/upstream.js';
import { makeTempDir, removeDir } from '../../test/helpers/iris.js';
import { resolveHomePaths } from '../config/home.js';
import { validateConfig } from '../config/validate.js';
import { logFilePath } from '../log/logger.js';
import { callModel, snapshotRoutes } from './call-model.js';
import { createRoutingDeps } from './runtime.js';

let fake: FakeUpstream;
let dir: string;
beforeAll(async () => {
  fake = await startFakeUpstream();
  dir = await makeTempDir();
});
afterAll(async () => {
  await fake.close();
  await removeDir(dir);
});

describe('createRoutingDeps', () => {
  it('writes the missing-credential warning to agent.log, without secrets', async () => {
    const paths = resolveHomePaths({ IRIS_HOME: join(dir, 'home') });
    const env = { OPENROUTER_API_KEY: 'sk-or-live-0123456789abcdef', OPENROUTER_BASE_URL: `${fake.url}/v1` };
    fake.script('anthropic/claude-sonnet-4.5', { kind: 'text', deltas: ['fine'] });
    const config = validateConfig({ model: { provider: 'openai', default: 'gpt-5.1' } }).config;
    const result = await callModel('vision', { messages: [{ role: 'user', content: 'hi' }] }, snapshotRoutes(config, env), createRoutingDeps(paths, env));
    expect(result).toMatchObject({ ok: true, text: 'fine' });
    const lines = (await readFile(logFilePath(paths, 'agent'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.level, l.task, l.missing, l.msg])).toEqual([
      [
        'warn',
        'vision',
        'OPENAI_API_KEY',
        'vision: openai · gpt-5.1 has no credential (set OPENAI_API_KEY); using the aggregator default openrouter · anthropic/claude-sonnet-4.5',
      ],
    ]);
    expect(await readFile(logFilePath(paths, 'agent'), 'utf8')).not.toContain('0123456789abcdef');
  });

  it('writes each fallback hop with task, from, to and reason', async () => {
    const paths = resolveHomePaths({ IRIS_HOME: join(dir, 'home2') });
    const env = { OPENROUTER_API_KEY: 'k1', OPENROUTER_BASE_URL: `${fake.url}/v1`, OPENAI_API_KEY: 'k2', OPENAI_BASE_URL: `${fake.url}/v1` };
    fake.script('gpt-5.1', { kind: 'server_error' });
    const config = validateConfig({ model: { provider: 'openai', default: 'gpt-5.1' } }).config;
    await callModel('main', { messages: [{ role: 'user', content: 'hi' }] }, snapshotRoutes(config, env), createRoutingDeps(paths, env));
    const lines = (await readFile(logFilePath(paths, 'agent'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.level, l.msg, l.task, l.from, l.to, String(l.reason).split(':')[0]])).toEqual([
      ['info', 'model fallback', 'main', 'openai · gpt-5.1', 'openrouter · anthropic/claude-sonnet-4.5', 'server'],
    ]);
  });
});
