// What makes a route unusable, found before the gateway starts (or before a subscription is
// saved) rather than on the first event: no secret, the insecure switch off loopback, a delivery
// target that cannot work. Pure: the gateway refuses to start when any of these is found. (A route
// to a chat platform that is not set up is platforms/delivery-target.ts's: that route alone is
// disabled, the gateway still starts.)
import { isIP } from 'node:net';
import { validateForgeTarget } from '../delivery/forge-comment.js';
import { validateGitlabTarget } from '../delivery/comment-target.js';
import { takesGithubEvents } from './pr-event.js';
import { isPrRoute, type ResolvedRoute } from './routes.js';
import { INSECURE_NO_AUTH } from '../config/secrets-policy.js';
import { TOOLSET_NAMES } from '../domain/toolsets.js';

/** localhost, 127.0.0.0/8 and ::1: the only hosts an unauthenticated listener may bind. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1' || bare === '0:0:0:0:0:0:0:1' || /^::ffff:127\./i.test(bare);
  return false;
}

/** Shorter secrets can be guessed or brute-forced offline from one signed request. */
export const MIN_SECRET_CHARS = 16;

/** `new`: every delivery is a new comment; `update`: one living comment per PR, edited by each review. */
export const DELIVERY_MODES = ['new', 'update'] as const;

const hasPlaceholder = (value: string) => /\{[A-Za-z0-9_.]+\}/.test(value);

/** Problems of one route, each a sentence naming the route and the fix. Disabled routes have none. */
export function routeProblems(route: ResolvedRoute, host: string): string[] {
  if (!route.enabled) return [];
  const where = route.source === 'config' ? `platforms.webhook.extra.routes.${route.name}` : `subscription ${route.name}`;
  const problems: string[] = [];
  if (route.secret === '') {
    problems.push(
      route.source === 'config'
        ? `route "${route.name}" has no secret: set ${where}.secret or platforms.webhook.extra.secret`
        : `route "${route.name}" has no secret: subscribe it again (a secret is generated when none is given)`,
    );
  } else if (route.secret === INSECURE_NO_AUTH) {
    if (!isLoopbackHost(host)) {
      problems.push(
        `route "${route.name}" uses INSECURE_NO_AUTH, which is only allowed on a loopback host (listening on ${host}); set platforms.webhook.extra.host to 127.0.0.1 or give the route a real secret`,
      );
    }
  } else if (route.secret.length < MIN_SECRET_CHARS) {
    problems.push(
      route.source === 'config'
        ? `route "${route.name}" has a secret of ${route.secret.length} character${route.secret.length === 1 ? '' : 's'}: use at least ${MIN_SECRET_CHARS} (for example: openssl rand -hex 32) in ${where}.secret or platforms.webhook.extra.secret`
        : `route "${route.name}" has a secret of ${route.secret.length} character${route.secret.length === 1 ? '' : 's'}: use at least ${MIN_SECRET_CHARS}; subscribe it again without --secret to get a random one`,
    );
  }
  const unknownToolsets = route.toolsets.filter((name) => !(TOOLSET_NAMES as readonly string[]).includes(name));
  if (unknownToolsets.length > 0) {
    problems.push(`route "${route.name}" names unknown toolset${unknownToolsets.length === 1 ? '' : 's'} ${unknownToolsets.map((n) => `"${n}"`).join(', ')} (known: ${TOOLSET_NAMES.join(', ')})`);
  }
  const mode = route.deliver_extra.mode;
  if (mode !== undefined && !(DELIVERY_MODES as readonly unknown[]).includes(mode)) {
    problems.push(`route "${route.name}" has deliver_extra.mode ${JSON.stringify(mode)}: use one of ${DELIVERY_MODES.join(', ')}`);
  } else if (mode === 'update' && route.deliver !== 'forge_comment') {
    problems.push(`route "${route.name}" has deliver_extra.mode "update", which only a forge_comment delivery can do (it delivers to ${route.deliver})`);
  }
  // A PR route takes its target from the event; deliver_extra's repo and pr_number are only a fallback.
  if (route.deliver === 'forge_comment' && !isPrRoute(route)) {
    const extra = Object.fromEntries(Object.entries(route.deliver_extra).map(([key, value]) => [key, String(value)]));
    const missing = ['repo', 'pr_number'].filter((key) => !extra[key]);
    if (missing.length > 0) {
      problems.push(`route "${route.name}" delivers a forge_comment but ${where}.deliver_extra has no ${missing.join(' and ')} (for example repo: "{repository.full_name}", pr_number: "{number}")`);
    } else if (!hasPlaceholder(extra.repo!) && !hasPlaceholder(extra.pr_number!)) {
      // Fixed values can be checked now; templated ones only when an event fills them in. A route
      // of GitLab's events alone names a GitLab project (group/subgroup/…/project).
      const target = takesGithubEvents(route.events) ? validateForgeTarget(extra) : validateGitlabTarget(extra);
      if (!target.ok) problems.push(`route "${route.name}": ${target.error}`);
    }
  }
  return problems;
}
