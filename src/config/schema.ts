// The config.yaml schema: every key, its type and its default, in one place. Built on zod/mini
// because the full zod build costs ~35 ms of start-up, and every command reads the config.
import * as z from 'zod/mini';
import { AUX_TASKS, type AuxTaskSpec } from '../domain/slots.js';
import { NAME_PATTERN, NAME_RULE, NAME_WORDS } from '../domain/name-rule.js';
import { describePattern } from './schema-walk.js';
import { parseCidr } from '../domain/ip-address.js';
import { ROUTE_SANDBOX_MODES, SANDBOX_MODES } from '../domain/sandbox-modes.js';

export const API_MODES = ['chat_completions', 'codex_responses', 'anthropic_messages'] as const;
export const AUTH_MODES = ['api_key', 'identity_token'] as const;
export const APPROVAL_MODES = ['manual', 'smart', 'off'] as const;
export const CURATOR_SCHEDULES = ['off', 'daily', 'weekly'] as const;
export const DELIVER_TARGETS = [
  'log',
  'forge_comment',
  'sms',
  'telegram',
  'discord',
  'slack',
  'signal',
] as const;

const nonEmpty = () => z.string().check(z.minLength(1));
const seconds = () => z.int().check(z.positive());
const ENV_VAR_NAME = describePattern(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a variable name (letters, digits and _)');
const envVarName = () => z.string().check(z.regex(ENV_VAR_NAME));
const emptyMap = () => ({});

/** `"<provider>/<model>"`, split on the first slash. */
export const providerModelRef = z.string().check(z.regex(describePattern(/^[^/\s]+\/\S+$/, '"<provider>/<model>"')));

const fallbackEntry = z.looseObject({
  provider: nonEmpty(),
  model: nonEmpty(),
  base_url: z.optional(z.string()),
  key_env: z.optional(envVarName()),
  api_mode: z.optional(z.enum(API_MODES)),
});

const modelMapping = z.looseObject({
  provider: z.optional(z.string()),
  default: z.optional(z.string()),
  /** Older pickers write the model here instead of `default`. */
  model: z.optional(z.string()),
  base_url: z.optional(z.string()),
  api_mode: z.optional(z.enum(API_MODES)),
  context_length: z.optional(z.int().check(z.positive())),
  auth_mode: z.optional(z.enum(AUTH_MODES)),
  identity: z.optional(z.looseObject({ scope: z.optional(z.string()) })),
  key_env: z.optional(envVarName()),
  aliases: z.optional(z.record(z.string(), providerModelRef)),
});

function auxTaskSchema(spec: AuxTaskSpec) {
  return z.prefault(
    z.looseObject({
      provider: z._default(z.string(), 'auto'),
      model: z._default(z.string(), ''),
      base_url: z._default(z.string(), ''),
      api_key: z._default(z.string(), ''),
      key_env: z.optional(envVarName()),
      api_mode: z.optional(z.enum(API_MODES)),
      timeout: z._default(seconds(), spec.timeout),
      ...(spec.downloadTimeout === undefined
        ? {}
        : { download_timeout: z._default(seconds(), spec.downloadTimeout) }),
      extra_body: z._default(z.record(z.string(), z.unknown()), emptyMap),
      fallback_chain: z._default(z.array(fallbackEntry), () => []),
    }),
    {},
  );
}

const auxiliary = z.prefault(
  z.looseObject(Object.fromEntries(AUX_TASKS.map((t) => [t.id, auxTaskSchema(t)])) as {
    [K in (typeof AUX_TASKS)[number]['id']]: ReturnType<typeof auxTaskSchema>;
  }),
  {},
);

const filterValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

// Route names end up in URLs (/webhooks/<name>) and session sources, so they keep the one name
// rule (src/domain/name-rule.ts, checked by src/security/names.ts): lowercase only, so two spellings can never name one route.
const ROUTE_NAME_WORDS = `route names matching ${NAME_RULE} (${NAME_WORDS}), without ".."`;
describePattern(NAME_PATTERN, ROUTE_NAME_WORDS);

export const ROUTE_SESSIONS = ['per_event', 'per_pr'] as const;

export const webhookRouteSchema = z.looseObject({
  enabled: z._default(z.boolean(), true),
  secret: z.optional(z.string()),
  events: z._default(z.array(z.string()), () => []),
  filters: z._default(
    z.array(z.looseObject({ field: nonEmpty(), in: z.array(filterValue) })),
    () => [],
  ),
  prompt: z.optional(z.string()),
  skills: z._default(z.array(z.string()), () => []),
  /** The toolsets a run of this route gets (`service-webhook` when empty); checked at start-up. */
  toolsets: z._default(z.array(z.string()), () => []),
  deliver: z._default(z.enum(DELIVER_TARGETS), 'log'),
  deliver_extra: z._default(z.record(z.string(), z.union([z.string(), z.number()])), emptyMap),
  /** `per_pr`: every event about one pull request continues one session, one run at a time (docs/pr-review.md). */
  session: z._default(z.enum(ROUTE_SESSIONS), 'per_event'),
  /** Comments on the PR are read for commands (/review, /ask, @iris …). */
  commands: z._default(z.boolean(), false),
  /** This route's runs in the sandbox or not, whatever tools.terminal.sandbox says. */
  sandbox: z.optional(z.enum(ROUTE_SANDBOX_MODES)),
  /** Share the network inside this route's sandbox (tools.terminal.network otherwise). */
  sandbox_network: z.optional(z.boolean()),
  /** Environment variables passed into this route's sandbox by name. */
  sandbox_env: z.optional(z.array(z.string().check(z.regex(describePattern(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name'))))),
  /** Pushes to one PR within this many seconds make one review, of the newest head; 0 reviews each push. */
  coalesce_seconds: z._default(z.int().check(z.gte(0), z.lte(3600)), 30),
  /**
   * PR reviews (docs/pr-review.md): `max_diff_tokens` is the diff's budget in the prompt (4
   * characters a token), the default a repository's `.iris/review.yaml` overrides; 1,000 to 1,000,000.
   */
  review: z.optional(z.looseObject({ max_diff_tokens: z.optional(z.int().check(z.gte(1_000), z.lte(1_000_000))) })),
});

const webhookPlatform = z.prefault(
  z.looseObject({
    enabled: z._default(z.boolean(), false),
    extra: z.prefault(
      z.looseObject({
        host: z._default(nonEmpty(), '0.0.0.0'),
        port: z._default(z.int().check(z.gte(0), z.lte(65535)), 8644),
        secret: z._default(z.string(), ''),
        rate_limit: z._default(z.int().check(z.positive()), 30),
        max_body_bytes: z._default(z.int().check(z.positive()), 1048576),
        /** Seconds a client has to send a whole body before it gets a 408. */
        body_timeout: z._default(seconds(), 30),
        /** Days a delivered or failed event stays in the inbox (iris webhook deliveries); 0 keeps them all. */
        keep_days: z._default(z.int().check(z.gte(0)), 30),
        /** Agent runs at once; more accepted events wait in the inbox. */
        concurrency: z._default(z.int().check(z.positive(), z.lte(64)), 4),
        /** Runs cut off by a crash before the event is failed as poison (it may be what crashes us). */
        max_run_attempts: z._default(z.int().check(z.positive(), z.lte(1000)), 3),
        /** Serve GET /metrics (Prometheus) on this listener; IRIS_METRICS_TOKEN, when set, guards it. */
        metrics: z._default(z.boolean(), false),
        routes: z._default(
          z.record(z.string().check(z.regex(NAME_PATTERN)), webhookRouteSchema),
          emptyMap,
        ),
      }),
      {},
    ),
  }),
  {},
);

// Chat platforms and SMS (docs/platforms.md): `platforms.<name>`, shaped like the webhook
// platform. Secrets are in .env (TELEGRAM_BOT_TOKEN, TWILIO_*), never here; every base address is a
// setting so that a fake can stand in for the service.
/**
 * Platform ids are the platform's own strings; YAML reads a bare 12345 as a number, so numbers are
 * taken too (and compared as their decimal string: platforms/platform-host.ts).
 */
const platformId = z.union([z.string(), z.number()]);

function chatPlatform<T extends Record<string, z.ZodMiniType>>(fields: T) {
  return z.prefault(
    z.looseObject({
      enabled: z._default(z.boolean(), false),
      extra: z.prefault(
        z.looseObject({
          /** Who may talk to the agent (platform user ids); everyone else gets a pairing code in a DM. */
          allowed_users: z._default(z.array(platformId), () => []),
          /** Users (platform user ids) who may also run /sethome, /model --global and /approve; they may talk to the agent too. */
          owners: z._default(z.array(platformId), () => []),
          /** Anyone may talk to the agent (logged as a warning at start). */
          allow_all_users: z._default(z.boolean(), false),
          /** Where deliveries without a chat_id go; /sethome writes it. */
          home_channel: z._default(platformId, ''),
          /** In a group, each user has a session of their own. */
          group_sessions_per_user: z._default(z.boolean(), true),
          ...fields,
        }),
        // Every key has a default, so an absent `extra` is a valid one; the generic hides that.
        {} as never,
      ),
    }),
    {},
  );
}

const telegramPlatform = chatPlatform({
  api_base: z._default(z.url(), 'https://api.telegram.org'),
  /** Seconds one getUpdates long poll waits for news. */
  poll_timeout: z._default(z.int().check(z.gte(0), z.lte(50)), 25),
});
const signalPlatform = chatPlatform({
  /** The signal-cli daemon's HTTP address (signal-cli daemon --http 127.0.0.1:8080); required. */
  http_url: z._default(z.string(), ''),
  /** The bot's own number, E.164. */
  account: z._default(z.string(), ''),
});
const slackPlatform = chatPlatform({
  api_base: z._default(z.url(), 'https://slack.com/api'),
});
const discordPlatform = chatPlatform({
  api_base: z._default(z.url(), 'https://discord.com/api/v10'),
});
const smsPlatform = chatPlatform({
  api_base: z._default(z.url(), 'https://api.twilio.com'),
  /** The Twilio number answers are sent from, E.164. */
  from: z._default(z.string(), ''),
  /** The full URL Twilio posts to and signs (https://iris.example.com/platforms/sms); required. */
  public_url: z._default(z.string(), ''),
});

// MCP servers (docs/mcp.md): `command` (stdio) or `url` (streamable HTTP); which one is decided
// when the servers are resolved (src/agent/tools/mcp/servers.ts), so a bad entry is one skipped server.
export const MCP_SERVER_NAME_PATTERN = describePattern(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - (at most 64)');

export const mcpServerSchema = z.looseObject({
  command: z.optional(nonEmpty()),
  args: z.optional(z.array(z.string())),
  env: z.optional(z.record(z.string(), z.string())),
  cwd: z.optional(z.string()),
  url: z.optional(z.url()),
  headers: z.optional(z.record(z.string(), z.string())),
  enabled: z._default(z.boolean(), true),
  tools: z.optional(
    z.looseObject({ include: z.optional(z.array(nonEmpty())), exclude: z.optional(z.array(nonEmpty())) }),
  ),
});

export const configSchema = z.looseObject({
  /** One paragraph about this profile (iris profile describe --auto writes it). */
  description: z.optional(z.string()),
  /** True while `description` is what the profile_describer model wrote (the dashboard's Auto-generate); a person's edit there removes it. */
  description_generated: z.optional(z.boolean()),
  /** `''` means not configured; `iris setup` / `iris model` replace it with a mapping. */
  model: z._default(z.union([z.literal(''), modelMapping]), ''),
  model_aliases: z._default(
    z.record(
      z.string(),
      z.looseObject({ model: nonEmpty(), provider: nonEmpty(), base_url: z.optional(z.string()) }),
    ),
    emptyMap,
  ),
  auxiliary,
  approval_mode: z._default(z.enum(APPROVAL_MODES), 'manual'),
  fallback_providers: z._default(z.array(fallbackEntry), () => []),
  /** `''` means none; else one fallback entry or `"<provider>/<model>"`. */
  fallback_model: z._default(z.union([z.literal(''), providerModelRef, fallbackEntry]), ''),
  platforms: z.prefault(z.looseObject({ webhook: webhookPlatform, telegram: telegramPlatform, discord: discordPlatform, slack: slackPlatform, signal: signalPlatform, sms: smsPlatform }), {}),
  /** The GitLab REST API the forge_comment delivery of GitLab events talks to (GITLAB_TOKEN in .env). */
  gitlab: z.prefault(z.looseObject({ api_base: z._default(z.url(), 'https://gitlab.com/api/v4') }), {}),
  /**
   * Where all state lives (docs/scale-out.md): `url` unset means $IRIS_HOME/state.db (SQLite);
   * `postgres://…` means PostgreSQL, shared by every process that names it. IRIS_STORE_URL
   * overrides `url`. `lease_seconds`: how long a worker's claim on a run holds without renewal.
   */
  store: z.prefault(
    z.looseObject({
      url: z._default(z.string().check(z.regex(describePattern(/^$|^postgres(ql)?:\/\/\S+$/i, 'empty (SQLite) or a postgres:// URL'))), ''),
      lease_seconds: z._default(z.int().check(z.gte(5), z.lte(3600)), 30),
    }),
    {},
  ),
  /** When older turns are summarised: a fraction of the main model's context length. */
  compression: z.prefault(
    z.looseObject({ threshold: z._default(z.number().check(z.gt(0), z.lte(1)), 0.5) }),
    {},
  ),
  agent: z.prefault(
    z.looseObject({
      /** Model calls in one turn before the loop stops with a clear reason. */
      max_iterations: z._default(z.int().check(z.positive(), z.lte(1000)), 40),
      /** The folder the file tools and the terminal work in; '' means the current directory. */
      workspace: z._default(z.string(), ''),
      toolsets: z._default(z.array(nonEmpty()), () => ['default']),
    }),
    {},
  ),
  mcp_servers: z._default(z.record(z.string().check(z.regex(MCP_SERVER_NAME_PATTERN)), mcpServerSchema), emptyMap),
  mcp: z.prefault(
    z.looseObject({
      /** Seconds one MCP tool call (or a server's start) may take. */
      timeout: z._default(seconds(), 60),
      /** Above this many MCP tools, the `mcp` slot picks the ones offered for each user message. */
      max_tools: z._default(z.int().check(z.positive(), z.lte(1000)), 24),
    }),
    {},
  ),
  /** How often the gateway runs `iris curator review` by itself (no --apply), its report to gateway.log. */
  curator: z.prefault(z.looseObject({ schedule: z._default(z.enum(CURATOR_SCHEDULES), 'off') }), {}),
  /** agent.log and gateway.log are rotated by size: `<name>.log.1` … `<name>.log.<keep>`. */
  logging: z.prefault(
    z.looseObject({
      max_size_mb: z._default(z.number().check(z.positive(), z.lte(10_240)), 10),
      keep: z._default(z.int().check(z.positive(), z.lte(100)), 5),
    }),
    {},
  ),
  /**
   * `web`: the fetch guard (docs/security.md) of every fetch whose address a stranger named
   * (vision_analyze, web_extract, chat images, skills by URL, hub indexes): `allow_private` opens
   * every address, `allow_cidrs` only the ranges listed.
   */
  tools: z.prefault(
    z.looseObject({
      web: z.prefault(
        z.looseObject({
          allow_private: z._default(z.boolean(), false),
          allow_cidrs: z._default(z.array(z.string().check(z.refine((text) => parseCidr(text) !== undefined))), () => []),
        }),
        {},
      ),
      /**
       * run_command's sandbox (docs/security.md): `auto` runs gateway runs (webhooks, chats) under
       * bubblewrap and `iris chat` without; `network` shares the network inside the sandbox.
       */
      terminal: z.prefault(
        z.looseObject({ sandbox: z._default(z.enum(SANDBOX_MODES), 'auto'), network: z._default(z.boolean(), false) }),
        {},
      ),
    }),
    {},
  ),
  /**
   * The dashboard on a non-loopback address (docs/security.md): `trusted_proxy` lets a reverse
   * proxy that signs people in name the user in `header`, believed only from the `from` addresses
   * (IPs or CIDR ranges); `public_hosts` are the Host names it answers besides the loopback ones
   * and the machine's own name and addresses (against DNS rebinding).
   */
  dashboard: z.prefault(
    z.looseObject({
      trusted_proxy: z.optional(
        z.looseObject({
          header: z._default(nonEmpty(), 'X-Forwarded-User'),
          from: z._default(z.array(nonEmpty()), () => []),
        }),
      ),
      public_hosts: z._default(z.array(nonEmpty()), () => []),
    }),
    {},
  ),
  /** Skills hubs (docs/skills.md): URLs or paths of JSON indexes that `iris skills search` reads. */
  skills: z.prefault(z.looseObject({ hubs: z._default(z.array(nonEmpty()), () => []) }), {}),
  /**
   * What the store keeps (docs/operations.md, "Retention"): sessions by where they came from, in
   * days since their last activity (0 keeps them forever); skill loads in days; curator reports by
   * count; usage detail rows in days, after which they are folded into per-day totals (the totals
   * never change). The gateway prunes hourly; `iris store prune` does it on demand.
   */
  retention: z.prefault(
    z.looseObject({
      sessions_days: z.prefault(
        z.looseObject({
          cli: z._default(z.int().check(z.gte(0)), 0),
          dashboard: z._default(z.int().check(z.gte(0)), 0),
          webhook: z._default(z.int().check(z.gte(0)), 30),
          platform: z._default(z.int().check(z.gte(0)), 90),
        }),
        {},
      ),
      skill_loads_days: z._default(z.int().check(z.gte(0)), 365),
      curator_reports: z._default(z.int().check(z.gte(0)), 50),
      usage_detail_days: z._default(z.int().check(z.gte(0)), 90),
    }),
    {},
  ),
  /** Model requests, in seconds (decimals allowed). An aux slot's own `timeout` caps its calls. */
  network: z.prefault(
    z.looseObject({
      connect_timeout: z._default(z.number().check(z.positive()), 10),
      first_byte_timeout: z._default(z.number().check(z.positive()), 120),
      idle_timeout: z._default(z.number().check(z.positive()), 60),
    }),
    {},
  ),
});

export type Config = z.output<typeof configSchema>;
export type ModelMapping = z.output<typeof modelMapping>;
export type FallbackEntry = z.output<typeof fallbackEntry>;
export type RetentionConfig = Config['retention'];
export type WebhookRoute = z.output<typeof webhookRouteSchema>;
export type McpServerConfig = z.output<typeof mcpServerSchema>;
/** The settings every chat platform has; each adds its own (api_base, http_url…). */
export type ChatPlatformConfig = z.output<typeof telegramPlatform> | z.output<typeof slackPlatform> | z.output<typeof discordPlatform> | z.output<typeof signalPlatform> | z.output<typeof smsPlatform>;
export type TelegramConfig = z.output<typeof telegramPlatform>;
export type SignalConfig = z.output<typeof signalPlatform>;
export type SmsConfig = z.output<typeof smsPlatform>;
export type SlackConfig = z.output<typeof slackPlatform>;
export type DiscordConfig = z.output<typeof discordPlatform>;

/**
 * Words for the `(allowed: …)` part of a problem, where the schema alone would not say what a
 * user may write. `kind: 'key'` describes a map key (a route name), `value` the value at a path.
 */
export const ALLOWED_TEXT: ReadonlyArray<{ path: string; kind: 'key' | 'value'; text: string }> = [
  { path: 'model', kind: 'value', text: "'' (not configured) or a mapping with provider and default" },
  {
    path: 'fallback_model',
    kind: 'value',
    text: "'', \"<provider>/<model>\", or a mapping with provider and model",
  },
  { path: 'model.aliases.*', kind: 'value', text: '"<provider>/<model>"' },
  {
    path: 'platforms.webhook.extra.routes.*',
    kind: 'key',
    text: ROUTE_NAME_WORDS,
  },
  { path: 'mcp_servers.*', kind: 'key', text: 'server names made of letters, digits, _ and - (at most 64)' },
  { path: 'tools.web.allow_cidrs.*', kind: 'value', text: 'an IP address or a CIDR range (10.0.0.0/8, fd00::/8)' },
];
