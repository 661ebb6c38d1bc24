// Skill loads on SQLite: one row per load (skill, session, at), and the per-skill usage since a
// time that the curator reads.
import type BetterSqlite3 from 'better-sqlite3';
import type { SkillLoads, SkillUsage } from './types.js';

type Db = BetterSqlite3.Database;
type Guarded = <T>(work: () => T) => Promise<T>;

/** Why the load cannot be stored, or undefined when it can. */
export function skillLoadProblem(skill: string, at: number): string | undefined {
  if (typeof skill !== 'string' || skill === '') return 'skill must be a non-empty string';
  if (!Number.isSafeInteger(at)) return `at must be epoch milliseconds (got ${String(at)})`;
  return undefined;
}

export function createSqliteSkillLoads(db: Db, guarded: Guarded, invalid: (message: string) => Error): SkillLoads {
  const insert = db.prepare<[string, string | null, number]>('INSERT INTO skill_loads (skill, session_id, at) VALUES (?, ?, ?)');
  const usage = db.prepare<[number], { skill: string; loads: number; last_load_at: number }>(
    `SELECT skill, COUNT(*) AS loads, MAX(at) AS last_load_at FROM skill_loads WHERE at >= ?
     GROUP BY skill ORDER BY loads DESC, skill`,
  );
  return {
    record: (skill, sessionId, at) =>
      guarded(() => {
        const problem = skillLoadProblem(skill, at);
        if (problem) throw invalid(`a skill load cannot be stored: ${problem}`);
        insert.run(skill, sessionId, at);
      }),
    usageSince: (since) =>
      guarded(() => usage.all(since).map((row): SkillUsage => ({ skill: row.skill, loads: row.loads, lastLoadAt: row.last_load_at }))),
  };
}
