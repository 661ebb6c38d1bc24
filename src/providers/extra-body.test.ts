// Which extra_body keys reach the wire: the provider's own knobs, never the fields the client
// builds (the model, the stream flag, the conversation, the tools).
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validate.js';
import { resolveCandidates } from '../routing/resolve.js';
import { CLIENT_OWNED_KEYS, splitExtraBody, withExtraBody } from './extra-body.js';
import { buildWireBody } from './wire/model-client.js';
import type { ApiMode } from './wire/types.js';

describe('splitExtraBody', () => {
  it('keeps the provider knobs and names the keys the client owns', () => {
    expect(splitExtraBody({ temperature: 0.2, model: 'x', stream: false, top_p: 0.9, messages: [], reasoning: { effort: 'low' } })).toEqual({
      allowed: { temperature: 0.2, top_p: 0.9, reasoning: { effort: 'low' } },
      ignored: ['model', 'stream', 'messages'],
    });
    expect(splitExtraBody(undefined)).toEqual({ allowed: {}, ignored: [] });
  });

  it('owns exactly the fields that carry the conversation and the protocol', () => {
    expect([...CLIENT_OWNED_KEYS].sort()).toEqual(['input', 'instructions', 'messages', 'model', 'store', 'stream', 'stream_options', 'system', 'tools']);
  });

  it('lets extra_body set a max-tokens field and anything unknown', () => {
    expect(withExtraBody({ model: 'm', max_tokens: 40 }, { max_tokens: 4096, provider: { order: ['a'] } })).toEqual({ model: 'm', max_tokens: 4096, provider: { order: ['a'] } });
  });
});

describe('the body each wire format sends', () => {
  const request = {
    model: 'real-model',
    system: 'be brief',
    messages: [{ role: 'user' as const, content: 'hi' }],
    tools: [{ name: 't', description: 'd', parameters: { type: 'object' } }],
    extraBody: { model: 'other', stream: false, messages: [], input: [], system: 'x', instructions: 'x', tools: [], store: true, stream_options: {}, temperature: 0.2 },
  };
  it.each<ApiMode>(['chat_completions', 'codex_responses', 'anthropic_messages'])('%s keeps its own fields and takes temperature', (apiMode) => {
    const body = buildWireBody(request, { apiMode, maxTokensField: 'max_tokens' });
    expect(body.model).toBe('real-model');
    expect(body.stream).toBe(true);
    expect(body.temperature).toBe(0.2);
    expect(JSON.stringify(body)).toContain('"hi"');
    expect(JSON.stringify(body)).toContain('be brief');
    expect(JSON.stringify(body)).toContain('"name":"t"');
    for (const key of ['messages', 'input', 'system', 'instructions', 'tools', 'store', 'stream_options']) {
      expect(body[key], `${apiMode} ${key}`).not.toEqual(request.extraBody[key as keyof typeof request.extraBody]);
    }
  });
});

describe('routing names the ignored keys', () => {
  it('warns once per slot whose extra_body sets a client field', () => {
    const config = validateConfig({ model: { provider: 'openai', default: 'gpt-5' }, auxiliary: { vision: { extra_body: { model: 'x', stream: false, temperature: 0 } } } }).config;
    const resolution = resolveCandidates(config, { OPENAI_API_KEY: 'k' }, 'vision');
    expect(resolution.warnings).toEqual([
      {
        slot: 'vision',
        code: 'extra_body_ignored',
        message: "vision: auxiliary.vision.extra_body sets model, stream, which Iris sets itself; ignored (extra_body is for the provider's own settings, such as temperature)",
      },
    ]);
    expect(resolveCandidates(config, { OPENAI_API_KEY: 'k' }, 'compression').warnings).toEqual([]);
  });
});
