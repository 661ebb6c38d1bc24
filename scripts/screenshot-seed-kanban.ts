// The Kanban page's screenshot data: a small board in every column of an already-seeded home's
// state.db, through store.kanban as `iris kanban add|move|specify|decompose` would leave it: a
// one-liner in triage, a specified card split into subtasks, work in progress, done and blocked.
// Times are placed relative to `now`.
import { join } from 'node:path';
import { openSqliteStore } from '../src/store/sqlite-store.js';
import type { KanbanStatus } from '../src/store/kanban-types.js';

const HOUR = 3_600_000;

const DARK_MODE_SPEC =
  '## Goal\n\nUsers can switch the dashboard to a dark theme.\n\n## Context\n\nThe dashboard follows the system colour scheme only.\n\n' +
  '## Acceptance criteria\n\n- [ ] a toggle in the header switches the theme\n- [ ] the choice survives a reload';

type SeedCard = { readonly title: string; readonly body?: string; readonly status: KanbanStatus; readonly hoursAgo: number; readonly children?: readonly { title: string; body: string; status: KanbanStatus }[] };

const CARDS: readonly SeedCard[] = [
  {
    title: 'Dark mode toggle for the dashboard',
    body: DARK_MODE_SPEC,
    status: 'doing',
    hoursAgo: 30,
    children: [
      { title: 'Theme tokens', body: 'Define the dark palette as CSS variables.', status: 'done' },
      { title: 'Header toggle', body: 'Add the switch and persist the choice.', status: 'doing' },
      { title: 'Contrast check', body: 'Every text passes WCAG AA in both themes.', status: 'todo' },
    ],
  },
  { title: 'Nightly backup of state.db to the NAS', status: 'triage', hoursAgo: 6 },
  { title: 'Summarise the weekly PR reviews in Telegram', status: 'triage', hoursAgo: 2 },
  { title: 'Rotate the GitHub webhook secret', body: 'Waiting for the org admin to grant access to the hook settings.', status: 'blocked', hoursAgo: 50 },
  { title: 'Upgrade to Node 22', body: 'CI and the Docker image both run Node 22.', status: 'done', hoursAgo: 70 },
];

export async function seedKanban(home: string, now: number): Promise<void> {
  let clock = now;
  const store = await openSqliteStore(join(home, 'state.db'), { now: () => clock });
  try {
    for (const card of CARDS) {
      clock = now - card.hoursAgo * HOUR;
      const task = await store.kanban.create({ title: card.title, body: card.body ?? '', status: card.status });
      if (!card.children) continue;
      clock += HOUR;
      const children = await store.kanban.createChildren(task.id, card.children);
      for (const [index, child] of children.entries()) {
        clock += HOUR;
        const status = card.children[index]!.status;
        if (status !== child.status) await store.kanban.move(child.id, status);
      }
    }
  } finally {
    await store.close();
  }
}
