import { describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validate.js';
import type { Config } from '../config/schema.js';
import { enabledPlatformNames, platformRouteProblem, platformTargets, resolvePlatformTarget } from './delivery-target.js';

function config(platforms: object): Config {
  return validateConfig({ platforms }).config;
}

describe('platform delivery targets', () => {
  const targets = platformTargets(config({ telegram: { enabled: true, extra: { home_channel: -100200 } }, sms: { enabled: true }, signal: { enabled: false } }));

  it('knows the enabled platforms and their home channels (a number in YAML is an id string)', () => {
    expect(enabledPlatformNames(config({ telegram: { enabled: true }, slack: { enabled: true }, signal: {} }))).toEqual(['telegram', 'slack']);
    expect([...targets]).toEqual([
      ['telegram', { homeChannel: '-100200' }],
      ['sms', { homeChannel: '' }],
    ]);
  });

  it('a bare number as the Signal or SMS home channel is an E.164 number (YAML dropped its +)', () => {
    const e164 = platformTargets(config({ signal: { enabled: true, extra: { home_channel: 15551230001 } }, sms: { enabled: true, extra: { home_channel: '+15551230002' } } }));
    expect([...e164]).toEqual([
      ['signal', { homeChannel: '+15551230001' }],
      ['sms', { homeChannel: '+15551230002' }],
    ]);
  });

  it('route problems: not enabled, or no chat and no home channel', () => {
    const route = { name: 'pr', deliver: 'telegram', deliver_extra: {} };
    expect(platformRouteProblem(route, targets)).toBeUndefined();
    expect(platformRouteProblem({ ...route, deliver: 'log' }, targets)).toBeUndefined();
    expect(platformRouteProblem({ ...route, deliver: 'signal' }, targets)).toBe(
      'route "pr" delivers to signal, which is not enabled (set platforms.signal.enabled: true and its settings; docs/platforms.md)',
    );
    expect(platformRouteProblem({ ...route, deliver: 'sms' }, targets)).toContain('route "pr" delivers to sms without a deliver_extra.chat_id, and sms has no home_channel');
    expect(platformRouteProblem({ ...route, deliver: 'sms', deliver_extra: { chat_id: '+15550001' } }, targets)).toBeUndefined();
  });

  it('resolves the chat: chat_id, else the home channel; a thread when given', () => {
    expect(resolvePlatformTarget('telegram', { chat_id: '42', thread_id: '7' }, targets)).toEqual({ ok: true, platform: 'telegram', chatId: '42', threadId: '7' });
    expect(resolvePlatformTarget('telegram', {}, targets)).toEqual({ ok: true, platform: 'telegram', chatId: '-100200', threadId: null });
    expect(resolvePlatformTarget('telegram', { chat_id: ' ', thread_id: '{missing.field}' }, targets)).toEqual({ ok: true, platform: 'telegram', chatId: '-100200', threadId: null });
    expect(resolvePlatformTarget('sms', {}, targets)).toEqual({ ok: false, error: 'deliver sms: no chat_id and no home_channel' });
    expect(resolvePlatformTarget('slack', { chat_id: 'C1' }, targets)).toEqual({ ok: false, error: 'deliver slack: platform not enabled' });
    expect(resolvePlatformTarget('forge_comment', {}, targets)).toEqual({ ok: false, error: 'deliver forge_comment is not a chat platform' });
  });
});
