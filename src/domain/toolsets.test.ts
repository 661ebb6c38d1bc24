import { describe, expect, it } from 'vitest';
import { offersMcp } from './toolsets.js';

describe('offersMcp', () => {
  it('is true for the broad toolsets and for mcp itself, false for a narrower list', () => {
    expect(offersMcp(['default'])).toBe(true);
    expect(offersMcp(['service-webhook'])).toBe(true);
    expect(offersMcp(['files-readonly', 'mcp'])).toBe(true);
    expect(offersMcp(['terminal', 'files'])).toBe(false);
    expect(offersMcp([])).toBe(false);
  });
});
