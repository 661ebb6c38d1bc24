import { describe, expect, it } from 'vitest';
import { parseSubscribeBody, parseTestBody } from './webhooks-request.js';

const SHAPE =
  'send {"name": "<route>", "events"?: ["pull_request", …], "prompt"?: "<template>", "deliver"?: "log", "deliver_extra"?: {"key": "value"}, "skills"?: […], "toolsets"?: […], "sandbox"?: "bubblewrap" | "off", "sandbox_network"?: true, "sandbox_env"?: ["NAME", …]} (no secret: a new one is made and shown once)';

describe('a subscribe body', () => {
  it('becomes the library input: lists trimmed, a blank prompt left out', () => {
    expect(parseSubscribeBody({ name: 'ci', events: [' push ', ''], prompt: '  ', deliver: 'log', deliver_extra: { repo: '{repository.full_name}', pr_number: 7 }, skills: ['a'], toolsets: [' web '] })).toEqual({
      ok: true,
      input: { name: 'ci', events: ['push'], deliver: 'log', deliverExtra: { repo: '{repository.full_name}', pr_number: 7 }, skills: ['a'], toolsets: ['web'] },
    });
    expect(parseSubscribeBody({ name: 'ci' })).toEqual({ ok: true, input: { name: 'ci', events: [], deliverExtra: {}, skills: [], toolsets: [] } });
    expect(parseSubscribeBody({ name: 'ci', sandbox: 'bubblewrap', sandbox_network: false, sandbox_env: [' GH_TOKEN ', ''] })).toEqual({
      ok: true,
      input: { name: 'ci', events: [], deliverExtra: {}, skills: [], toolsets: [], sandbox: 'bubblewrap', sandboxNetwork: false, sandboxEnv: ['GH_TOKEN'] },
    });
    expect(parseSubscribeBody({ name: 'ci', sandbox_network: 'yes' })).toMatchObject({ ok: false, error: expect.stringMatching(/^sandbox_network must be a boolean; /) as string });
  });

  it('is refused with a sentence: a missing name, a secret, a wrong type, a bad key or event', () => {
    expect(parseSubscribeBody({})).toEqual({ ok: false, error: `name must be a string; ${SHAPE}` });
    expect(parseSubscribeBody(null)).toEqual({ ok: false, error: `the body must be an object; ${SHAPE}` });
    expect(parseSubscribeBody({ name: 'ci', secret: 's' })).toEqual({ ok: false, error: `unknown field "secret"; ${SHAPE}` });
    expect(parseSubscribeBody({ name: 'ci', events: 'push' })).toEqual({ ok: false, error: `events must be an array; ${SHAPE}` });
    expect(parseSubscribeBody({ name: 'ci', deliver_extra: { 'a b': 'x' } })).toEqual({ ok: false, error: `deliver_extra key "a b" must be a word (letters, digits and _, at most 64); ${SHAPE}` });
    expect(parseSubscribeBody({ name: 'ci', events: Array.from({ length: 65 }, () => 'push') })).toEqual({ ok: false, error: `events is too long (at most 64 items); ${SHAPE}` });
    expect(parseSubscribeBody({ name: 'ci', events: ['a\nb'] })).toEqual({ ok: false, error: 'event "a\\nb" must be letters, digits, _ . : or - (at most 100)' });
  });
});

describe('a test body', () => {
  it('an event and a payload, both optional; the payload passes as a value for the library to check', () => {
    expect(parseTestBody({})).toEqual({ ok: true, request: {} });
    expect(parseTestBody({ event: 'push', payload: { ref: 'main' } })).toEqual({ ok: true, request: { event: 'push', payload: { value: { ref: 'main' } } } });
    expect(parseTestBody({ payload: [1] })).toEqual({ ok: true, request: { payload: { value: [1] } } });
  });

  it('is refused for another field or an event that could not be a header', () => {
    const shape = 'send {"event"?: "<event name>", "payload"?: {…}} ({} sends a sample of the route\'s first event)';
    expect(parseTestBody({ secret: 'x' })).toEqual({ ok: false, error: shape });
    expect(parseTestBody({ event: 3 })).toEqual({ ok: false, error: shape });
    expect(parseTestBody({ event: 'push\r\nx: 1' })).toEqual({ ok: false, error: 'event "push\\r\\nx: 1" must be letters, digits, _ . : or - (at most 100)' });
  });
});
