// A route's `review` settings (PR reviews): checked by the config schema, kept by the route table
// and in the snapshot an accepted event runs with.
import { describe, expect, it } from 'vitest';
import { configSchema } from '../config/schema.js';
import { parseRouteSnapshot, resolveRoutes, routeSnapshot } from './routes.js';

const withRoute = (route: Record<string, unknown>) =>
  configSchema.safeParse({ platforms: { webhook: { enabled: true, extra: { routes: { pr: { secret: 's'.repeat(16), ...route } } } } } });

describe('route review settings', () => {
  it('keeps review.max_diff_tokens from config.yaml to the snapshot', () => {
    const parsed = withRoute({ session: 'per_pr', review: { max_diff_tokens: 50_000 } });
    if (!parsed.success) throw new Error('the config did not parse');
    const route = resolveRoutes(parsed.data, {}).routes.get('pr');
    if (!route) throw new Error('no route');
    expect(route.review).toEqual({ max_diff_tokens: 50_000 });
    const snapshot = parseRouteSnapshot(routeSnapshot(route));
    expect(snapshot.ok && snapshot.snapshot.review).toEqual({ max_diff_tokens: 50_000 });
  });

  it('leaves it out of the snapshot when the route sets none', () => {
    const parsed = withRoute({ session: 'per_pr' });
    if (!parsed.success) throw new Error('the config did not parse');
    const route = resolveRoutes(parsed.data, {}).routes.get('pr');
    expect(JSON.parse(routeSnapshot(route!))).not.toHaveProperty('review');
  });

  it('refuses a budget out of range or not a whole number', () => {
    for (const value of [999, 1_000_001, 2500.5, '24000']) expect(withRoute({ review: { max_diff_tokens: value } }).success).toBe(false);
    expect(withRoute({ review: { max_diff_tokens: 1_000 } }).success).toBe(true);
  });
});
