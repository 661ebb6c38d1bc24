// The temporary IRIS_HOME scripts/screenshots.ts photographs: realistic, and the same on every
// run except for the dates (usage is placed relative to now, so the 7-day views have data).
// Two profiles (default and work, each with a description), sessions (chats and a webhook run,
// with tool calls), and usage with auxiliary slots, cache tokens and an unpriced model.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Message } from '../src/domain/messages.js';
import { openSqliteStore } from '../src/store/sqlite-store.js';
import type { UsageRecord } from '../src/store/types.js';
import { seedDeliveries } from './screenshot-seed-deliveries.js';
import { seedKanban } from './screenshot-seed-kanban.js';
import { seedLogs } from './screenshot-seed-logs.js';
import { seedModels } from './screenshot-seed-models.js';
import { seedPlatforms } from './screenshot-seed-platforms.js';
import { seedSkills } from './screenshot-seed-skills.js';
import { seedWebhooks } from './screenshot-seed-webhooks.js';

const CONFIG = `description: The everyday home - chats at the terminal and in the dashboard, and the PR-review webhook for the team's repositories. Claude Sonnet answers; cheaper models take vision, compression and titles.
description_generated: true
model:
  provider: openrouter
  default: anthropic/claude-sonnet-4.5
auxiliary:
  vision: { provider: openai, model: gpt-4.1 }
  compression: { provider: openrouter, model: google/gemini-2.5-flash }
  title_generation: { provider: openai, model: gpt-5-mini }
`;

const WORK_CONFIG = `description: Work bot for the support rota; OpenAI only, no personal keys.
model:
  provider: openai
  default: gpt-5.1
`;

export const KEYS = {
  OPENROUTER_API_KEY: 'sk-or-screenshot-0123456789',
  OPENAI_API_KEY: 'sk-openai-screenshot-0123456789',
  ANTHROPIC_API_KEY: 'sk-ant-screenshot-0123456789',
};

const HOUR = 3_600_000;
const SONNET = { provider: 'openrouter', model: 'anthropic/claude-sonnet-4.5' } as const;

type SeedSession = {
  readonly id: string;
  readonly source: string;
  readonly title: string;
  readonly messages: readonly Message[];
};

/** The session the Chat page opens in the screenshots. */
export const CHAT_SESSION = 'sess-screenshot-chat';

const SESSIONS: readonly SeedSession[] = [
  {
    id: CHAT_SESSION,
    source: 'dashboard',
    title: 'Why is the nightly build slow?',
    messages: [
      { role: 'user', content: 'The nightly build went from 9 to 21 minutes this week. Can you find out why?' },
      { role: 'assistant', content: 'Let me look at the last two build logs.', toolCalls: [{ id: 'call-1', name: 'terminal', arguments: { command: 'gh run list --workflow nightly --limit 2' } }] },
      { role: 'tool', toolCallId: 'call-1', name: 'terminal', content: 'completed success nightly main 21m04s\ncompleted success nightly main 9m12s' },
      {
        role: 'assistant',
        content:
          'The slow run spends 11 minutes in `npm ci`: the cache key now includes the lockfile of every workspace, and one of them changes on each build. Keying the cache on the root lockfile only brings it back to about 9 minutes.',
      },
    ],
  },
  {
    id: 'sess-screenshot-webhook',
    source: 'webhook:pr-review',
    title: 'PR #482 review: retry budget for the uploader',
    messages: [
      { role: 'user', content: 'pull_request opened: #482 "uploader: a retry budget instead of unbounded retries" by mara' },
      { role: 'assistant', content: 'Reviewed the diff: two findings posted (a missing jitter, an off-by-one in the budget reset).' },
    ],
  },
  {
    id: 'sess-screenshot-cli',
    source: 'cli',
    title: 'Draft the release notes for 0.9',
    messages: [
      { role: 'user', content: 'Draft release notes for 0.9 from the merged PRs since 0.8.' },
      { role: 'assistant', content: 'Here is a draft grouped into Features, Fixes and Docs.' },
    ],
  },
];

function usage(now: number): Array<Omit<UsageRecord, 'sessionId'> & { sessionId: string | null }> {
  const call = (hoursAgo: number, sessionId: string | null, source: UsageRecord['source'], provider: string, model: string, task: string, input: number, output: number, cost: number | null) => ({
    sessionId,
    source,
    at: now - hoursAgo * HOUR,
    provider,
    model,
    task,
    inputTokens: input,
    outputTokens: output,
    cachedTokens: Math.round(input / 3),
    cacheWriteTokens: Math.round(input / 20),
    costUsd: cost,
  });
  return [
    call(2, CHAT_SESSION, 'dashboard', SONNET.provider, SONNET.model, 'main', 412_000, 28_400, 1.41),
    call(2, CHAT_SESSION, 'dashboard', 'openai', 'gpt-5-mini', 'title_generation', 12_400, 600, 0.004),
    call(5, 'sess-screenshot-webhook', 'webhook:pr-review', SONNET.provider, SONNET.model, 'main', 228_000, 15_100, 0.79),
    call(5, 'sess-screenshot-webhook', 'webhook:pr-review', 'openai', 'gpt-4.1', 'vision', 64_000, 2_100, 0.14),
    call(8, CHAT_SESSION, 'dashboard', 'openrouter', 'google/gemini-2.5-flash', 'compression', 180_000, 9_800, 0.08),
    call(30, 'sess-screenshot-cli', 'cli', SONNET.provider, SONNET.model, 'main', 96_000, 7_400, 0.38),
    call(50, 'sess-screenshot-cli', 'cli', 'custom', 'llama-3.3-70b', 'main', 40_000, 3_000, null),
    call(100, null, 'platform:telegram', SONNET.provider, SONNET.model, 'main', 52_000, 4_100, 0.21),
  ];
}

/** Writes the home (default profile) and profiles/work under `home`. */
export async function seedHome(home: string, now: number): Promise<void> {
  await mkdir(join(home, 'profiles', 'work'), { recursive: true, mode: 0o700 });
  await writeFile(join(home, 'config.yaml'), CONFIG, { mode: 0o600 });
  await writeFile(join(home, 'profiles', 'work', 'config.yaml'), WORK_CONFIG, { mode: 0o600 });
  const store = await openSqliteStore(join(home, 'state.db'));
  try {
    // Oldest first: the store orders by last activity, and the chat the Chat page opens is the newest.
    for (const session of [...SESSIONS].reverse()) {
      await store.createSession({ id: session.id, source: session.source, title: session.title, ...SONNET });
      await store.appendMessages(session.id, session.messages);
    }
    for (const record of usage(now)) await store.recordUsage(record);
  } finally {
    await store.close();
  }
  // Each operator page adds its own data (scripts/screenshot-seed-<area>.ts); config.yaml edits
  // are made as YAML documents, so they add up.
  for (const seed of [seedWebhooks, seedDeliveries, seedPlatforms, seedKanban, seedSkills, seedLogs, seedModels]) await seed(home, now);
}
