// The fake model server on its own (test/fakes/upstream.ts: the three wire formats, the models
// list), so a person can try the commands that need a model without a key:
//   node scripts/run-ts.mjs scripts/fake-model-server.ts [--port 8788] [--model fake-model]
// The model echoes the last user message ("echo: …"); any other model name answers "ok".
import { startFakeUpstream } from '../test/fakes/upstream.js';

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? (process.argv[at + 1] as string) : fallback;
}

const port = Number(option('port', '8788'));
const model = option('model', 'fake-model');
const fake = await startFakeUpstream({ models: [model], port });
fake.script(model, { kind: 'echo', prefix: 'echo: ' });
process.stdout.write(
  [
    `fake model server at ${fake.url} (chat completions, Responses and Anthropic messages); model ${model} echoes`,
    'in another shell, with a home of its own:',
    '  export IRIS_HOME=$(mktemp -d)',
    `  export OPENAI_BASE_URL=${fake.url}/v1 OPENAI_API_KEY=fake-key-0123456789`,
    `  iris model set openai ${model} && iris chat -q hello`,
    'Ctrl-C stops it',
    '',
  ].join('\n'),
);
const stop = () => void fake.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
