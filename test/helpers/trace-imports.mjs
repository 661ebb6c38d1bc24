// `node --import ./trace-imports.mjs …` records every ESM module the process resolves, one URL a
// line, in $IRIS_TRACE_FILE: how the e2e tests prove that a command loads no heavy module.
import { register } from 'node:module';

register('./trace-hooks.mjs', import.meta.url);
