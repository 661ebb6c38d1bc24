// Every endpoint the dashboard serves, listed from the routes themselves (routes/index.ts), not by
// hand: each one is 401 without the session token or with a wrong one, and 400 for a foreign Host
// (DNS rebinding), before its own work runs; and none of these refused requests writes anything.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_AREAS } from '../../src/dashboard/routes/index.js';
import type { DashboardContext } from '../../src/dashboard/routes/route.js';
import { startDashboardProcess, type DashboardProcess } from '../helpers/dashboard.js';
import { send } from '../helpers/gateway.js';
import { makeTempDir, removeDir } from '../helpers/iris.js';

// Building a route list does no work (each route reads the context when it runs), so a context
// that refuses every use is enough to list them.
const refusing = new Proxy({} as DashboardContext, {
  get: (_target, key) => {
    throw new Error(`listing the routes used the context (${String(key)})`);
  },
});
const AREAS = ROUTE_AREAS.map((area) => area(refusing));
const ROUTES = AREAS.flat();
/** A path with each `:param` filled with a valid name (a refused request never looks it up). */
const concrete = (path: string) => path.replace(/:[a-z_]+/gi, 'x1');

let home: string;
let dash: DashboardProcess;

beforeAll(async () => {
  home = await makeTempDir('iris-guard-');
  dash = await startDashboardProcess(home);
});

afterAll(async () => {
  await dash.stop();
  await removeDir(home);
});

describe('every dashboard endpoint', () => {
  it('every API area registers its routes', () => {
    expect(AREAS.map((routes) => routes.length > 0)).toEqual(AREAS.map(() => true));
    expect(ROUTES.length).toBeGreaterThan(30);
  });

  it('is 401 without the token or with a wrong one, 400 on a foreign Host, and writes nothing', async () => {
    const body = JSON.stringify({ name: 'x1' });
    for (const route of ROUTES) {
      const path = concrete(route.path);
      const headers: Record<string, string> = route.method === 'GET' || route.method === 'DELETE' ? {} : { 'content-type': 'application/json' };
      const withBody = route.method === 'GET' || route.method === 'DELETE' ? {} : { body };
      const none = await send(dash.url, { method: route.method, path, headers, ...withBody });
      const wrong = await send(dash.url, { method: route.method, path, headers: { ...headers, 'x-service-session-token': 'wrong' }, ...withBody });
      const foreign = await send(dash.url, { method: route.method, path, headers: { ...headers, 'x-service-session-token': dash.token, host: 'evil.example:80' }, ...withBody });
      expect([route.method, route.path, none.status, none.json, wrong.status, wrong.json, foreign.status, foreign.json]).toEqual([
        route.method,
        route.path,
        401,
        { error: 'Unauthorized' },
        401,
        { error: 'Unauthorized' },
        400,
        { error: 'Invalid Host header' },
      ]);
    }
    // Nothing was written: no audit line, no store, no config.
    for (const file of ['logs/audit.log', 'state.db', 'config.yaml', 'webhook_subscriptions.json']) {
      await expect(access(join(home, file)), file).rejects.toThrow();
    }
  });
});
