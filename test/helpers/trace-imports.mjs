// `node --import ./trace-imports.mjs …` records every ESM module the process resolves, one URL a
// line, in $IRIS_TRACE_FILE: how the e2e tests prove that a command loads no heavy module. At exit
// it adds the built-in modules the process loaded after this tracer had set itself up (as
// node:<name>), whoever asked for them: a bundled CommonJS dependency's require() never passes the
// ESM hooks. The tracer's own (worker_threads, net for the hooks thread) are left out. The CLI's
// bundles are compiled by the launcher through vm.Script (src/cli/launch.ts), which no module hook
// sees: each one's file is recorded as a file: URL too.
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';
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
  appendFileSync(process.env.IRIS_TRACE_FILE, builtins.map((name) => `${name}\n`).join(''));
});
