// `node --import ./trace-imports.mjs …` records what the process loads, one URL a line, in
// $IRIS_TRACE_FILE: how the e2e tests prove that a command loads no heavy module. Recorded:
// - every ES module the process resolves (the module hooks);
// - every file the CLI's launcher compiles as a script (src/cli/launch.ts, through vm.Script,
//   which no module hook sees), as a file: URL;
// - at exit, the built-in modules loaded after this tracer had set itself up (as node:<name>),
//   whoever asked for them, and every file require() loaded (the launcher, and packages outside
//   the bundles such as pino), which no module hook sees either. The tracer's own built-ins
//   (worker_threads, net for the hooks thread) are left out.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';

register('./trace-hooks.mjs', import.meta.url);
const CompiledScript = vm.Script;
vm.Script = class TracedScript extends CompiledScript {
  constructor(source, options) {
    if (process.env.IRIS_TRACE_FILE && options?.filename) appendFileSync(process.env.IRIS_TRACE_FILE, `${pathToFileURL(options.filename).href}\n`);
    super(source, options);
  }
};
const tracersOwn = new Set(process.moduleLoadList);

process.on('exit', () => {
  if (!process.env.IRIS_TRACE_FILE) return;
  const builtins = process.moduleLoadList.filter((entry) => entry.startsWith('NativeModule ') && !tracersOwn.has(entry)).map((entry) => `node:${entry.slice('NativeModule '.length)}`);
  // And every file require() loaded (the launcher, packages outside the bundles such as pino),
  // which no ES module hook sees either.
  const required = Object.keys(createRequire(import.meta.url).cache).map((file) => pathToFileURL(file).href);
  appendFileSync(process.env.IRIS_TRACE_FILE, [...builtins, ...required].map((name) => `${name}\n`).join(''));
});
