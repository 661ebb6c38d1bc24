import { describe, expect, it } from 'vitest';
import { authorizeScrape, isMetricsRequest, metricsToken } from './scrape.js';

describe('authorizeScrape', () => {
  const TOKEN = 'scrape-token-0123456789';
  it.each([
    [undefined, undefined, 'allowed'],
    ['Bearer anything', undefined, 'allowed'],
    [`Bearer ${TOKEN}`, TOKEN, 'allowed'],
    [`bearer ${TOKEN}`, TOKEN, 'allowed'],
    [`Bearer  ${TOKEN} `, TOKEN, 'allowed'],
    [undefined, TOKEN, 'unauthorized'],
    ['', TOKEN, 'unauthorized'],
    [TOKEN, TOKEN, 'unauthorized'],
    [`Basic ${TOKEN}`, TOKEN, 'unauthorized'],
    [`Bearer ${TOKEN}x`, TOKEN, 'unauthorized'],
    [`Bearer ${TOKEN.slice(0, -1)}`, TOKEN, 'unauthorized'],
    [`Bearer ${TOKEN} extra`, TOKEN, 'unauthorized'],
  ] as const)('%j with token %j → %s', (header, token, decision) => {
    expect(authorizeScrape(header, token)).toBe(decision);
  });
});

describe('metricsToken', () => {
  it.each([
    [{}, undefined],
    [{ IRIS_METRICS_TOKEN: '' }, undefined],
    [{ IRIS_METRICS_TOKEN: '   ' }, undefined],
    [{ IRIS_METRICS_TOKEN: ' tok ' }, 'tok'],
  ])('%j → %j', (env, token) => {
    expect(metricsToken(env)).toBe(token);
  });
});

describe('isMetricsRequest', () => {
  it.each([
    ['/metrics', true],
    ['/metrics?x=1', true],
    ['/metrics/', false],
    ['/metricsx', false],
    ['/webhooks/metrics', false],
    [undefined, false],
  ])('%j → %s', (url, expected) => {
    expect(isMetricsRequest(url)).toBe(expected);
  });
});
