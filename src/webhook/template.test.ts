import { describe, expect, it } from 'vitest';
import { renderDeliverExtra, renderRunPrompt, renderTemplate, TEMPLATE_LIMITS, TRUNCATION_MARKER } from './template.js';

const payload = {
  action: 'opened',
  number: 7,
  ratio: -1.25,
  draft: false,
  merged: true,
  merged_at: null,
  empty: '',
  pull_request: { title: 'Fix {number} and {__raw__}', user: { login: 'octo' }, labels: [{ name: 'bug' }] },
  repository: { full_name: 'acme/app' },
  object_attributes: { iid: 12, title: 'MR title' },
};

describe('renderTemplate', () => {
  it('replaces fields and nested fields', () => {
    expect(renderTemplate('Review PR #{number} in {repository.full_name} by {pull_request.user.login}', payload)).toBe(
      'Review PR #7 in acme/app by octo',
    );
    expect(renderTemplate('MR !{object_attributes.iid}: {object_attributes.title}', payload)).toBe('MR !12: MR title');
  });

  it('indexes arrays with digits', () => {
    expect(renderTemplate('{pull_request.labels.0.name}', payload)).toBe('bug');
  });

  it('prints scalars as themselves', () => {
    expect(renderTemplate('{ratio}|{draft}|{merged}|{merged_at}|{empty}|', payload)).toBe('-1.25|false|true|null||');
  });

  it('prints objects and arrays as 2-space JSON', () => {
    expect(renderTemplate('{pull_request.user}', payload)).toBe('{\n  "login": "octo"\n}');
    expect(renderTemplate('{pull_request.labels}', payload)).toBe('[\n  {\n    "name": "bug"\n  }\n]');
  });

  it('cuts a long object at 2,000 characters and appends the marker', () => {
    const long = { text: 'x'.repeat(5_000) };
    const full = JSON.stringify(long, null, 2);
    expect(renderTemplate('{long}', { long })).toBe(full.slice(0, 2_000) + TRUNCATION_MARKER);
    expect(TEMPLATE_LIMITS.valueChars).toBe(2_000);
    expect(TRUNCATION_MARKER).toBe('\n… [truncated]');
  });

  it('does not cut an object of exactly 2,000 characters', () => {
    const exact = { t: 'x'.repeat(2_000 - '{\n  "t": ""\n}'.length) };
    const text = JSON.stringify(exact, null, 2);
    expect(text).toHaveLength(2_000);
    expect(renderTemplate('{exact}', { exact })).toBe(text);
  });

  it('never splits a surrogate pair when cutting', () => {
    // `{\n  "t": "x` is 11 characters, so each emoji's high surrogate sits at an odd index: 1999.
    const value = { t: 'x' + '😀'.repeat(995) };
    const text = JSON.stringify(value, null, 2);
    expect(text.charCodeAt(1_999).toString(16)).toBe('d83d');
    expect(renderTemplate('{value}', { value })).toBe(text.slice(0, 1_999) + TRUNCATION_MARKER);
  });

  it('does not cut strings, however long', () => {
    const body = 'b'.repeat(10_000);
    expect(renderTemplate('{body}', { body })).toBe(body);
  });

  it('renders {__raw__} as the whole payload, cut at 4,000 characters', () => {
    expect(renderTemplate('{__raw__}', { a: 1 })).toBe('{\n  "a": 1\n}');
    const big = { data: 'y'.repeat(9_000) };
    expect(renderTemplate('<<{__raw__}>>', big)).toBe(`<<${JSON.stringify(big, null, 2).slice(0, 4_000)}${TRUNCATION_MARKER}>>`);
    expect(TEMPLATE_LIMITS.payloadChars).toBe(4_000);
  });

  it('prefers {__raw__} over a payload field of that name', () => {
    expect(renderTemplate('{__raw__}', { __raw__: 'field' })).toBe('{\n  "__raw__": "field"\n}');
  });

  it('leaves a missing path verbatim', () => {
    expect(renderTemplate('Body: {pull_request.body}; {nope}; {number.x}; {pull_request.labels.5}', payload)).toBe(
      'Body: {pull_request.body}; {nope}; {number.x}; {pull_request.labels.5}',
    );
  });

  it.each([
    ['spaces inside', 'Use { not a field } here', 'Use { not a field } here'],
    ['a malformed path', '{a..b} {.number} {number.}', '{a..b} {.number} {number.}'],
    ['other characters', '{pull-request} {a[0]} {a:b} {é}', '{pull-request} {a[0]} {a:b} {é}'],
    ['empty braces', '{} {{}}', '{} {{}}'],
    ['unbalanced braces', '{number {action} number}', '{number opened number}'],
    ['JSON text', '{"action": "{action}"}', '{"action": "opened"}'],
    ['conditionals', '{% if draft %}x{% endif %} {{#if draft}}', '{% if draft %}x{% endif %} {{#if draft}}'],
  ])('passes anything else through verbatim: %s', (_name, template, expected) => {
    expect(renderTemplate(template, payload)).toBe(expected);
  });

  it('renders the inner {x} of {{x}} and keeps the outer braces', () => {
    expect(renderTemplate('{{action}}', payload)).toBe('{opened}');
    expect(renderTemplate('{{nope}}', payload)).toBe('{{nope}}');
  });

  it('never re-scans text taken from the payload', () => {
    expect(renderTemplate('Title: {pull_request.title}', payload)).toBe('Title: Fix {number} and {__raw__}');
    expect(renderTemplate('{a}{b}', { a: '{', b: 'action}' })).toBe('{action}');
  });

  it('inserts $ sequences literally', () => {
    expect(renderTemplate('{t}', { t: "$& $1 $$ $' $`" })).toBe("$& $1 $$ $' $`");
  });

  it('leaves inherited properties verbatim', () => {
    expect(renderTemplate('{constructor} {toString}', payload)).toBe('{constructor} {toString}');
  });

  it('returns a template without placeholders unchanged', () => {
    expect(renderTemplate('', payload)).toBe('');
    expect(renderTemplate('Plain text.', payload)).toBe('Plain text.');
  });

  it('prints a value that is not JSON-printable as a marker instead of throwing', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(renderTemplate('{self}', cyclic)).toBe('[not printable as JSON]');
  });
});

describe('renderRunPrompt', () => {
  it('renders the template when there is one', () => {
    expect(renderRunPrompt({ template: 'PR #{number}', event: 'pull_request', route: 'review', payload })).toBe('PR #7');
  });

  it('names the event and the route, then the payload JSON, without a template', () => {
    expect(renderRunPrompt({ event: 'pull_request', route: 'review', payload: { a: 1 } })).toBe(
      'Webhook event "pull_request" arrived on route "review". Its payload:\n\n{\n  "a": 1\n}',
    );
  });

  it('treats a blank template as none', () => {
    const none = renderRunPrompt({ event: 'push', route: 'r', payload: { a: 1 } });
    expect(renderRunPrompt({ template: '', event: 'push', route: 'r', payload: { a: 1 } })).toBe(none);
    expect(renderRunPrompt({ template: ' \n ', event: 'push', route: 'r', payload: { a: 1 } })).toBe(none);
    expect(renderRunPrompt({ template: undefined, event: 'push', route: 'r', payload: { a: 1 } })).toBe(none);
  });

  it('cuts the payload at 4,000 characters without a template', () => {
    const big = { data: 'z'.repeat(9_000) };
    expect(renderRunPrompt({ event: 'push', route: 'r', payload: big })).toBe(
      `Webhook event "push" arrived on route "r". Its payload:\n\n${JSON.stringify(big, null, 2).slice(0, 4_000)}${TRUNCATION_MARKER}`,
    );
  });
});

describe('renderDeliverExtra', () => {
  it('renders string values and stringifies numbers', () => {
    expect(
      renderDeliverExtra({ repo: '{repository.full_name}', pr_number: '{number}', chat_id: 12345, note: 'fixed', gone: '{nope}' }, payload),
    ).toEqual({ repo: 'acme/app', pr_number: '7', chat_id: '12345', note: 'fixed', gone: '{nope}' });
  });

  it('returns an empty map for no extras', () => {
    expect(renderDeliverExtra({}, payload)).toEqual({});
  });
});
