// The Skills page's API, on the same library calls as `iris skills …` and `iris curator …`: the
// installed skills with their loads, a hub search through the skills_hub slot, install and remove,
// and the curator's last report with Apply for its archive proposals. Writes are audited.
// Installing from the page takes a hub name or an http(s) URL: a path would let a request read
// this machine's files, so paths stay with the CLI.
import * as z from 'zod/mini';
import { fetchGuardOf } from '../../agent/fetch-guard.js';
import { skillsDir } from '../../agent/tools/skills/skills.js';
import { isHttpUrl } from '../../agent/tools/vision/download.js';
import { applyArchiveProposals, type ApplyResult } from '../../curator/apply-report.js';
import { proposalId } from '../../curator/apply.js';
import { readLastReport } from '../../curator/last-report.js';
import { checkName } from '../../security/names.js';
import { hitJson, hubWarnings, searchHubs } from '../../skills/hub-search.js';
import { installSkill, type InstallFailureCode } from '../../skills/install-skill.js';
import { removeSkill } from '../../skills/install.js';
import { listInstalledSkills, readOrigins, withUsage } from '../../skills/installed.js';
import { isSkillLocation } from '../../skills/install.js';
import { sourceReader } from '../../skills/source.js';
import { HttpError } from '../http-error.js';
import type { DashboardContext, RouteArea, RouteRequest } from './route.js';

const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

const MAX_QUERY_CHARS = 200;
const MAX_TARGET_CHARS = 2_000;
const MAX_IDS = 500;

const InstallBody = z.strictObject({ name: z.optional(z.string()), source: z.optional(z.string()), force: z.optional(z.boolean()) });
const ApplyBody = z.strictObject({ proposals: z.array(z.string().check(z.maxLength(200))).check(z.maxLength(MAX_IDS)) });

const INSTALL_STATUS: Readonly<Record<InstallFailureCode, number>> = {
  bad_name: 400,
  not_found: 404,
  invalid_skill: 422,
  io_error: 502,
  exists: 409,
};

const APPLY_STATUS: Readonly<Record<Extract<ApplyResult, { ok: false }>['code'], number>> = {
  empty: 400,
  unknown: 400,
  not_archive: 400,
  not_installed: 409,
  no_report: 404,
};

/** What to install from a body: exactly one of a hub name or an http(s) URL. */
export function installTarget(data: unknown): { ok: true; target: string; force: boolean } | { ok: false; error: string } {
  const parsed = InstallBody.safeParse(data);
  if (!parsed.success) return { ok: false, error: 'the body must be {"name": "<skill in a hub>"} or {"source": "<https URL of a SKILL.md>"}, with an optional "force": true' };
  const { name, source, force } = parsed.data;
  if ((name === undefined) === (source === undefined)) return { ok: false, error: 'give exactly one of "name" (a skill in the hubs) or "source" (a SKILL.md URL)' };
  if (name !== undefined) {
    const checked = checkName('skill', name);
    return checked.ok ? { ok: true, target: name, force: force === true } : { ok: false, error: checked.error };
  }
  if (source!.length > MAX_TARGET_CHARS || !isHttpUrl(source!)) return { ok: false, error: '"source" must be an http(s) URL of a SKILL.md (install from a path with iris skills install)' };
  return { ok: true, target: source!, force: force === true };
}

/** What a body asked to install, for the audit line even when it is refused ('' when neither). */
function namedIn(data: unknown): string {
  const fields = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const value = typeof fields.name === 'string' ? fields.name : fields.source;
  return typeof value === 'string' ? value : '';
}

async function skillsList(context: DashboardContext) {
  const dir = skillsDir(context.paths);
  const { skills, invalid } = await listInstalledSkills(dir);
  const store = await context.existingStore();
  // All loads the store keeps (retention.skill_loads_days prunes the old ones).
  const usage = store ? await store.skillLoads.usageSince(0) : [];
  const rows = withUsage(skills, await readOrigins(dir, skills), usage);
  return {
    skills: rows.map((skill) => ({
      name: skill.name,
      description: skill.description,
      path: skill.path,
      source: skill.origin?.source ?? null,
      installed_at: iso(skill.origin?.installedAt),
      loads: skill.loads,
      last_load_at: iso(skill.lastLoadAt),
    })),
    invalid,
  };
}

async function hubSearch(context: DashboardContext, url: URL) {
  const query = (url.searchParams.get('q') ?? '').trim();
  if (query === '') throw new HttpError(400, 'give a search: /api/skills/hub?q=<words>');
  if (query.length > MAX_QUERY_CHARS) throw new HttpError(400, `the search is longer than ${MAX_QUERY_CHARS} characters`);
  const [config, env] = await Promise.all([context.currentConfig(), context.currentEnv()]);
  const searched = await searchHubs(query, {
    paths: context.paths,
    env,
    config,
    read: sourceReader(fetchGuardOf(config, env)),
    usageSource: 'dashboard',
    recordUsage: async (record) => (await context.store()).recordUsage(record),
  });
  if (!searched.ok && searched.code === 'no_hubs') throw new HttpError(404, searched.error);
  if (!searched.ok) {
    const why = searched.listing.failed.map((problem) => `${problem.hub}: ${problem.error}`).join('; ');
    return { status: 502, body: { error: `${searched.error} (${why})`, failed_hubs: searched.listing.failed } };
  }
  const { listing, outcome } = searched;
  const body = {
    query,
    ranked: outcome.ranked,
    results: outcome.hits.map(hitJson),
    failed_hubs: listing.failed,
    warnings: [...hubWarnings(listing), ...(searched.oauthProblem ? [searched.oauthProblem] : [])],
  };
  // The slot failed or answered malformed twice: an error, with the unranked candidates beside it.
  if (outcome.warning) return { status: 502, body: { error: outcome.warning, ...body } };
  return body;
}

async function curatorReport(context: DashboardContext) {
  const last = await readLastReport(context.paths.dir);
  if (!last) return { report: null };
  const installed = new Set((await listInstalledSkills(skillsDir(context.paths))).skills.map((skill) => skill.name));
  const data = last.data;
  return {
    report: {
      date: last.date,
      path: last.path,
      text: last.text,
      at: iso(data?.at),
      days: data?.days ?? null,
      skills: data?.skills.map((skill) => ({ name: skill.name, loads: skill.loads, last_load_at: iso(skill.lastLoadAt) })) ?? [],
      proposals: (data?.proposals ?? []).map((proposal) => ({
        id: proposalId(proposal),
        skill: proposal.skill,
        action: proposal.action,
        reason: proposal.reason,
        into: proposal.into ?? null,
        description: proposal.description ?? null,
        installed: installed.has(proposal.skill),
      })),
      invalid: data?.invalid ?? [],
      has_data: data !== undefined,
    },
  };
}

/** An audited write whose target is set by the work once it knows it. */
function write(context: DashboardContext, request: RouteRequest, action: string, initial: string, work: (setTarget: (target: string) => void) => Promise<unknown>) {
  let target = initial;
  return context.audited(request, action, () => target, () => work((value) => (target = value)));
}

export const skillRoutes: RouteArea = (context) => [
  { method: 'GET', path: '/api/skills', run: () => skillsList(context) },
  { method: 'GET', path: '/api/skills/hub', run: (request) => hubSearch(context, request.url) },
  {
    method: 'POST',
    path: '/api/skills',
    run: (request) =>
      write(context, request, 'skills.install', '', async (setTarget) => {
        const data = await context.readJson(request.req);
        setTarget(namedIn(data));
        const asked = installTarget(data);
        if (!asked.ok) throw new HttpError(400, asked.error);
        // Defence in depth: installTarget lets through only names and URLs, never a path.
        if (isSkillLocation(asked.target) && !isHttpUrl(asked.target)) throw new HttpError(400, 'install from a path with iris skills install');
        const [config, env] = await Promise.all([context.currentConfig(), context.currentEnv()]);
        const installed = await installSkill(asked.target, asked.force, {
          skillsDir: skillsDir(context.paths),
          hubs: config.skills.hubs,
          read: sourceReader(fetchGuardOf(config, env)),
          now: Date.now,
        });
        if (!installed.ok) throw new HttpError(INSTALL_STATUS[installed.code], installed.error);
        setTarget(installed.name);
        return { ok: true, installed: installed.name, description: installed.description, path: installed.path, from: installed.from, source: installed.source, replaced: installed.replaced };
      }),
  },
  {
    method: 'DELETE',
    path: '/api/skills/:name',
    run: (request) =>
      write(context, request, 'skills.remove', request.params.name ?? '', async () => {
        const name = request.params.name ?? '';
        const checked = checkName('skill', name);
        if (!checked.ok) throw new HttpError(400, checked.error);
        if (!(await removeSkill(skillsDir(context.paths), name))) throw new HttpError(404, `no skill named "${name}"`);
        return { ok: true, removed: name };
      }),
  },
  { method: 'GET', path: '/api/curator', run: () => curatorReport(context) },
  {
    method: 'POST',
    path: '/api/curator/apply',
    run: (request) =>
      write(context, request, 'curator.apply', '', async (setTarget) => {
        const parsed = ApplyBody.safeParse(await context.readJson(request.req));
        if (!parsed.success) throw new HttpError(400, 'the body must be {"proposals": ["<proposal id>", …]} (ids from GET /api/curator)');
        setTarget(parsed.data.proposals.join(','));
        const applied = await applyArchiveProposals(context.paths.dir, skillsDir(context.paths), parsed.data.proposals);
        if (!applied.ok) throw new HttpError(APPLY_STATUS[applied.code], applied.error);
        return { ok: true, report: applied.report, archived: applied.archived.map((entry) => ({ skill: entry.skill, to: entry.to })) };
      }),
  },
];
