// Matching a model-written regular expression against file contents, with a time limit. A regex
// can backtrack for hours on one line (`(a+)+$`), and in the service that would freeze every
// session and the webhook listener; V8 runs no timer during a match, but code run through node:vm
// with `timeout` is interrupted, regex included. Texts go in batches, since each timed run costs
// a watchdog thread.
import { createContext, Script, type Context } from 'node:vm';

const COMPILE = new Script('re = new RegExp(pattern, flags);');
const MATCH = new Script(`(() => {
  const hits = [];
  let found = 0;
  for (const text of texts) {
    const lines = text.split(/\\r?\\n/);
    const at = [];
    for (let i = 0; i < lines.length && found < limit; i++) {
      if (re.test(lines[i])) { at.push(i); found++; }
    }
    hits.push(at);
  }
  return hits;
})()`);

export type LineMatcher = {
  /**
   * For each text, the 0-based numbers of its matching lines, `limit` in all at most; or
   * `undefined` when the time ran out.
   */
  match(texts: readonly string[], limit: number, timeoutMs: number): number[][] | undefined;
};

/** Throws a SyntaxError for an invalid pattern (check with `new RegExp` first for the message). */
export function createLineMatcher(pattern: string, flags: string): LineMatcher {
  const context: Context = createContext({ pattern, flags, re: undefined, texts: [], limit: 0 });
  COMPILE.runInContext(context, { timeout: 1_000 });
  return {
    match(texts, limit, timeoutMs) {
      if (timeoutMs <= 0) return undefined;
      context.texts = texts;
      context.limit = limit;
      try {
        return MATCH.runInContext(context, { timeout: Math.ceil(timeoutMs) }) as number[][];
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return undefined;
        throw err;
      } finally {
        context.texts = [];
      }
    },
  };
}
