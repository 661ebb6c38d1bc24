// Every API area the dashboard serves, in one list: a new page adds its file here.
import { chatRoutes } from './chat.js';
import { healthRoutes } from './health.js';
import { logRoutes } from './logs.js';
import { webhookRoutes } from './webhooks.js';
import { deliveryRoutes } from './deliveries.js';
import { platformRoutes } from './platforms.js';
import { kanbanRoutes } from './kanban.js';
import { skillRoutes } from './skills.js';
import { modelRoutes } from './models.js';
import { profileRoutes } from './profiles.js';
import type { RouteArea } from './route.js';
import { sessionRoutes } from './sessions.js';
import { usageRoutes } from './usage.js';

export const ROUTE_AREAS: readonly RouteArea[] = [modelRoutes, usageRoutes, profileRoutes, chatRoutes, sessionRoutes, healthRoutes, logRoutes, webhookRoutes, deliveryRoutes, platformRoutes, kanbanRoutes, skillRoutes];
