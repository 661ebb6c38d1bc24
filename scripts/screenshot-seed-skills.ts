// The Skills page's screenshot data, added to an already-seeded home: four installed skills (two
// from a hub, with their origin, two put in place by hand), their loads in state.db, and the
// curator's last report (keep, archive, merge, rewrite) as `iris curator review` writes it, with
// its data, so Apply is offered. Times are placed relative to `now`.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Proposal, SkillForReview } from '../src/curator/proposals.js';
import { formatReport, writeReport } from '../src/curator/report.js';
import { reportDataComment } from '../src/curator/report-data.js';
import { writeOrigin } from '../src/skills/origin.js';
import { openSqliteStore } from '../src/store/sqlite-store.js';

const HOUR = 3_600_000;
const HUB = 'https://skills.example.org/index.json';

type SeedSkill = { readonly name: string; readonly description: string; readonly body: string; readonly fromHub: boolean; readonly loadsHoursAgo: readonly number[] };

const SKILLS: readonly SeedSkill[] = [
  { name: 'pr-review', description: 'Review a pull request - bugs first, then missing tests, then style.', body: 'Read the diff twice before commenting.', fromHub: true, loadsHoursAgo: [2, 5, 9, 26, 50, 73, 120] },
  { name: 'release-notes', description: 'Write release notes from the merged pull requests since the last tag.', body: 'Group the changes by area.', fromHub: true, loadsHoursAgo: [30, 200] },
  { name: 'deploy-staging', description: 'Deploy the service to staging and check its health endpoint.', body: 'Run make deploy-staging.', fromHub: false, loadsHoursAgo: [4, 28] },
  { name: 'old-deploy', description: 'Deploy (the steps before the Makefile).', body: 'ssh to the box and pull.', fromHub: false, loadsHoursAgo: [] },
];

const PROPOSALS: readonly Proposal[] = [
  { skill: 'pr-review', action: 'keep', reason: 'Loaded in most review runs this month.' },
  { skill: 'release-notes', action: 'rewrite', reason: 'The description does not say when to use it.', description: 'Write release notes for a new tag from the pull requests merged since the previous one.' },
  { skill: 'deploy-staging', action: 'keep', reason: 'Used for every staging deploy.' },
  { skill: 'old-deploy', action: 'archive', reason: 'Never loaded in 30 days; deploy-staging replaced it.' },
];

export async function seedSkills(home: string, now: number): Promise<void> {
  const dir = join(home, 'skills');
  for (const skill of SKILLS) {
    await mkdir(join(dir, skill.name), { recursive: true, mode: 0o700 });
    await writeFile(join(dir, skill.name, 'SKILL.md'), `---\nname: ${skill.name}\ndescription: ${skill.description}\n---\n${skill.body}\n`, { mode: 0o600 });
    if (skill.fromHub) await writeOrigin(dir, skill.name, { source: HUB, from: `https://skills.example.org/${skill.name}/SKILL.md`, installedAt: now - 40 * 24 * HOUR });
  }
  const store = await openSqliteStore(join(home, 'state.db'));
  try {
    for (const skill of SKILLS) for (const hoursAgo of skill.loadsHoursAgo) await store.skillLoads.record(skill.name, null, now - hoursAgo * HOUR);
  } finally {
    await store.close();
  }
  const at = now - 3 * HOUR;
  const reviewed: SkillForReview[] = SKILLS.map((skill) => ({
    name: skill.name,
    description: skill.description,
    text: skill.body,
    loads: skill.loadsHoursAgo.length,
    lastLoadAt: skill.loadsHoursAgo.length === 0 ? null : at - Math.min(...skill.loadsHoursAgo) * HOUR,
  }));
  const facts = { at, days: 30, skills: reviewed, proposals: PROPOSALS, invalid: [] };
  await writeReport(home, at, `${formatReport(facts)}${reportDataComment(facts)}`);
}
