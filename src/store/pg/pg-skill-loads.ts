// Skill loads on PostgreSQL: the same rows and the same per-skill usage as skill-loads.ts.
import { StoreError } from '../errors.js';
import { skillLoadProblem } from '../skill-loads.js';
import type { SkillLoads, SkillUsage } from '../types.js';
import type { PgContext } from './pg-context.js';

export function createPgSkillLoads(ctx: PgContext): SkillLoads {
  return {
    record: (skill, sessionId, at) =>
      ctx.guarded(async () => {
        const problem = skillLoadProblem(skill, at);
        if (problem) throw new StoreError('invalid', `${ctx.where}: a skill load cannot be stored: ${problem}`);
        await ctx.pool.query('INSERT INTO skill_loads (skill, session_id, at) VALUES ($1, $2, $3)', [skill, sessionId, at]);
      }),
    usageSince: (since) =>
      ctx.guarded(async () => {
        const result = await ctx.pool.query<{ skill: string; loads: number; last_load_at: number }>(
          `SELECT skill, count(*) AS loads, max(at) AS last_load_at FROM skill_loads WHERE at >= $1
           GROUP BY skill ORDER BY loads DESC, skill`,
          [since],
        );
        return result.rows.map((row): SkillUsage => ({ skill: row.skill, loads: row.loads, lastLoadAt: row.last_load_at }));
      }),
  };
}
