import { describe, expect, it } from 'vitest';
import { listPath } from './sessions-api.js';
import { emptyText, sourceFitsTab, sourceOptions, tabAfterKey, tokensText } from './sessions-view.js';

const totals = { calls: 2, input_tokens: 1234, output_tokens: 300, cached_tokens: 0, cache_write_tokens: 0, cost_usd: 0.0123, unpriced_calls: 0 };

describe('the Sessions page wording', () => {
  it('empty states say what to do next', () => {
    expect(emptyText('chats', '', '')).toBe('No chats yet: start one on the Chat page or with `iris chat`.');
    expect(emptyText('automation', '', '')).toContain('`iris gateway run`');
    expect(emptyText('all', ' kiwi ', '')).toBe('No session matches "kiwi". Try another word, or search All.');
  });

  it('tokens and cost; unpriced calls are said, never shown as $0', () => {
    expect(tokensText(totals)).toBe('1.2k in · 300 out · $0.01');
    expect(tokensText({ ...totals, cached_tokens: 40, cache_write_tokens: 12, unpriced_calls: 1 })).toBe('1.2k in · 300 out · 40 cached · 12 cache write · $0.01 + 1 unpriced call');
    expect(tokensText({ ...totals, cost_usd: null, unpriced_calls: 2 })).toBe('1.2k in · 300 out · unpriced');
    expect(tokensText({ ...totals, calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: null })).toBe('0 in · 0 out · no model calls');
  });

  it('source choices follow the tab and list the routes seen', () => {
    expect(sourceOptions('chats', ['webhook:pr']).map((o) => o.value)).toEqual(['', 'cli', 'dashboard']);
    expect(sourceOptions('automation', ['cli', 'webhook:zeta', 'webhook:alpha']).map((o) => o.value)).toEqual(['', 'webhook:', 'webhook:alpha', 'webhook:zeta', 'telegram', 'discord', 'slack', 'signal', 'sms']);
    expect(sourceFitsTab('chats', 'webhook:')).toBe(false);
    expect(sourceFitsTab('automation', 'telegram')).toBe(true);
    expect(sourceFitsTab('all', 'cli')).toBe(true);
  });

  it('arrow keys move between tabs and wrap; Home and End jump', () => {
    const tabs = ['chats', 'automation', 'all'] as const;
    expect(tabAfterKey(tabs, 'chats', 'ArrowRight')).toBe('automation');
    expect(tabAfterKey(tabs, 'chats', 'ArrowLeft')).toBe('all');
    expect(tabAfterKey(tabs, 'automation', 'End')).toBe('all');
    expect(tabAfterKey(tabs, 'all', 'Home')).toBe('chats');
    expect(tabAfterKey(tabs, 'all', 'a')).toBeUndefined();
  });

  it('the list request carries only what is set', () => {
    expect(listPath({ tab: 'chats', q: '', source: '', offset: 0, limit: 50 })).toBe('/api/sessions?tab=chats&limit=50');
    expect(listPath({ tab: 'all', q: ' 50% off ', source: 'webhook:', offset: 50, limit: 50 })).toBe('/api/sessions?tab=all&q=50%25+off&source=webhook%3A&limit=50&offset=50');
  });
});
