// GET /api/sessions's parameters: the tab's source filter, the source filter's exact and prefix
// forms, paging bounds, and a message for every bad parameter.
import { describe, expect, it } from 'vitest';
import { parseListQuery, sourceFilter, tabFilter } from './session-list-query.js';

const parse = (query: string) => parseListQuery(new URLSearchParams(query));

describe('tabFilter', () => {
  it('chats are what a person started; automation is everything else; all is everything', () => {
    expect(tabFilter('chats')).toEqual({ sourceIn: ['cli', 'dashboard'] });
    expect(tabFilter('automation')).toEqual({ sourceNotIn: ['cli', 'dashboard'] });
    expect(tabFilter('all')).toEqual({});
  });
});

describe('sourceFilter', () => {
  it('webhook and a value ending in ":" are prefixes; anything else is exact', () => {
    expect(sourceFilter('webhook')).toEqual({ sourcePrefix: 'webhook:' });
    expect(sourceFilter('webhook:')).toEqual({ sourcePrefix: 'webhook:' });
    expect(sourceFilter('webhook:pr-review')).toEqual({ source: 'webhook:pr-review' });
    expect(sourceFilter('telegram')).toEqual({ source: 'telegram' });
    expect(sourceFilter('cli')).toEqual({ source: 'cli' });
  });
});

describe('parseListQuery', () => {
  it('defaults: all tabs, 50 a page from the first', () => {
    expect(parse('')).toEqual({ ok: true, tab: 'all', query: { limit: 50, offset: 0 } });
  });

  it('combines the tab, the source, the trimmed text and the page', () => {
    expect(parse('tab=automation&source=webhook&q=%20kiwi%2050%25%20&limit=10&offset=20')).toEqual({
      ok: true,
      tab: 'automation',
      query: { sourceNotIn: ['cli', 'dashboard'], sourcePrefix: 'webhook:', text: 'kiwi 50%', limit: 10, offset: 20 },
    });
    expect(parse('tab=chats&q=&source=')).toEqual({ ok: true, tab: 'chats', query: { sourceIn: ['cli', 'dashboard'], limit: 50, offset: 0 } });
  });

  it.each([
    ['tab=mine', 'tab must be chats, automation or all (got "mine")'],
    ['limit=0', 'limit must be a whole number from 1 to 200 (got "0")'],
    ['limit=201', 'limit must be a whole number from 1 to 200 (got "201")'],
    ['limit=1.5', 'limit must be a whole number from 1 to 200 (got "1.5")'],
    ['limit=', 'limit must be a whole number from 1 to 200 (got "")'],
    ['offset=-1', `offset must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER} (got "-1")`],
    ['offset=1e3', `offset must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER} (got "1e3")`],
    ['sort=title', 'unknown parameter "sort" (known: tab, q, source, limit, offset)'],
    ['tab=all&tab=chats', 'tab is given more than once'],
    [`q=${'x'.repeat(201)}`, 'q is longer than 200 characters'],
    ['q=a%00b', 'q holds a control character'],
    ['source=c%01li', 'source holds a control character'],
  ])('%s → 400 %s', (query, error) => {
    expect(parse(query)).toEqual({ ok: false, error });
  });
});
