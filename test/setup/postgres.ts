// vitest globalSetup: the suite needs PostgreSQL (every store test runs on SQLite and on
// PostgreSQL). Checked once before any test file: a server that does not answer stops the run
// with the command that starts it, instead of failing every PostgreSQL test one by one, and never
// skips them.
import { postgresProblem } from '../helpers/postgres.js';

export default async function checkPostgres(): Promise<void> {
  const problem = await postgresProblem();
  if (problem) throw new Error(problem);
}
