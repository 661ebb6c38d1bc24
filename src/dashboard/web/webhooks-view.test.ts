import { describe, expect, it } from 'vitest';
import type { WebhookRoute } from './webhooks-api.js';
import { EMPTY_FORM, eventsText, filtersText, lastDeliveryView, subscribeBody, targetText, testResultText, whenText, whyNoTest } from './webhooks-view.js';

const route = (over: Partial<WebhookRoute> = {}): WebhookRoute => ({
  name: 'ci',
  source: 'subscription',
  enabled: true,
  events: [],
  filters: [],
  deliver: 'log',
  deliver_extra: {},
  url: 'http://127.0.0.1:8644/webhooks/ci',
  has_secret: true,
  last_delivery: null,
  ...over,
});

describe('the Subscribe form as a request body', () => {
  it('splits events on commas and spaces, keeps the prompt as typed and reads key=value lines', () => {
    expect(
      subscribeBody(
        { name: ' pr-review ', events: 'pull_request, push  issues', prompt: '  Review {pull_request.title}\n', deliver: 'forge_comment', deliverExtra: 'repo={repository.full_name}\n\n pr_number = {number} \n' },
        [],
      ),
    ).toEqual({
      ok: true,
      body: {
        name: 'pr-review',
        events: ['pull_request', 'push', 'issues'],
        prompt: '  Review {pull_request.title}\n',
        deliver: 'forge_comment',
        deliver_extra: { repo: '{repository.full_name}', pr_number: '{number}' },
      },
    });
  });

  it('leaves out a blank prompt; no events means every event', () => {
    expect(subscribeBody({ ...EMPTY_FORM, name: 'ci', prompt: '   ' }, [])).toEqual({ ok: true, body: { name: 'ci', events: [], deliver: 'log', deliver_extra: {} } });
  });

  it('says what to fix: no name, a name off the rule, a config.yaml name, a line without =', () => {
    expect(subscribeBody({ ...EMPTY_FORM, name: '  ' }, [])).toEqual({ ok: false, error: 'Give the route a name: it becomes the address /webhooks/<name>.' });
    expect(subscribeBody({ ...EMPTY_FORM, name: 'Bad Name' }, [])).toEqual({
      ok: false,
      error: 'The name "Bad Name" does not fit the rule: lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64, without "..".',
    });
    expect(subscribeBody({ ...EMPTY_FORM, name: 'a..b' }, []).ok).toBe(false);
    expect(subscribeBody({ ...EMPTY_FORM, name: 'static' }, [route({ name: 'static', source: 'config' })])).toEqual({ ok: false, error: '"static" is a config.yaml route; pick another name.' });
    // An existing subscription of that name is updated (its secret kept), so it is no clash.
    expect(subscribeBody({ ...EMPTY_FORM, name: 'ci' }, [route()]).ok).toBe(true);
    expect(subscribeBody({ ...EMPTY_FORM, name: 'ci', deliverExtra: 'repo' }, [])).toEqual({ ok: false, error: 'Delivery settings take key=value, one a line (got "repo").' });
    expect(subscribeBody({ ...EMPTY_FORM, name: 'ci', deliverExtra: '=x' }, [])).toEqual({ ok: false, error: 'Delivery settings take key=value, one a line (got "=x").' });
  });
});

describe('a route row', () => {
  it('events, filters and the delivery target as text', () => {
    expect(eventsText([])).toBe('all events');
    expect(eventsText(['pull_request', 'push'])).toBe('pull_request, push');
    expect(filtersText([])).toBe('');
    expect(filtersText([{ field: 'action', in: ['opened', 'synchronize'] }, { field: 'pull_request.draft', in: [false, null] }])).toBe('action in opened, synchronize; pull_request.draft in false, null');
    expect(targetText('log', {})).toBe('log');
    expect(targetText('forge_comment', { repo: '{repository.full_name}', pr_number: 7 })).toBe('forge_comment (repo={repository.full_name}, pr_number=7)');
  });

  it('the last delivery links to the Deliveries page', () => {
    expect(lastDeliveryView(route())).toEqual({ href: null, label: 'no events yet', when: '' });
    expect(lastDeliveryView(route({ last_delivery: { id: 12, state: 'delivered', received_at: '2026-11-20T08:05:59.000Z', updated_at: '2026-11-20T08:06:30.000Z' } }))).toEqual({
      href: '#/deliveries/12',
      label: '#12 delivered',
      when: '2026-11-20 08:05 UTC',
    });
    expect(whenText('not a time')).toBe('');
  });

  it('only subscriptions get a test button', () => {
    expect(whyNoTest(route())).toBeUndefined();
    expect(whyNoTest(route({ source: 'config' }))).toBe('A config.yaml route: send a signed event from the code host to test it.');
  });

  it('a test event in one sentence', () => {
    expect(testResultText({ status: 202, body: { status: 'accepted' }, delivery_id: 'test-1', event: 'pull_request', sample: 'a GitHub pull_request (opened) sample' })).toBe(
      'Sent a signed pull_request event (delivery test-1): the gateway answered 202 and accepted it. It carried a GitHub pull_request (opened) sample.',
    );
    expect(testResultText({ status: 401, body: { error: 'bad signature' }, delivery_id: 'test-2', event: 'push', sample: null })).toBe(
      'Sent a signed push event (delivery test-2): the gateway answered 401 and refused it.',
    );
  });
});
