// What `npm run demo` plays: the pull request event, the route that takes it, and every answer of
// the scripted model. Nothing here is produced by a real model: these strings are the model.
import type { FakeBehaviour } from '../../test/fakes/upstream.js';

export const REPO = 'octo-org/hello-world';
export const PR_NUMBER = 42;
export const ROUTE = 'github-pr';
export const MODEL_ID = 'scripted-demo-model';
/** GitHub's own example delivery id; the temporary IRIS_HOME is new each run, so it is never a duplicate. */
export const DELIVERY_ID = '72d3162e-cc78-11e3-81ab-4c9367dc0958';
/** Not a key: the fake model accepts anything, and Iris wants some value for the openai provider. */
export const DUMMY_API_KEY = 'demo-not-a-real-key';

/** The command the scripted model asks to run first (the tool loop's first step). */
export const TOOL_COMMAND = `gh pr diff ${PR_NUMBER} --repo ${REPO}`;

/** The scripted final answer; posted as the PR comment. */
export const SCRIPTED_ANSWER = [
  '**Iris demo review** _(scripted: written in scripts/demo/scenario.ts, not by a real model)_',
  '',
  `PR #${PR_NUMBER} "Add a greeting to the README" by @octocat, \`feature/greeting\` → \`main\`.`,
  '',
  `- I asked to run \`${TOOL_COMMAND}\`; Iris refused it (\`approval_mode: manual\` has no one to ask in an unattended run), so this review has not seen the diff.`,
  '- With a real model, and an approval policy that lets it read the diff, the review would go here.',
].join('\n');

export const SCRIPTED_TITLE = `Review of ${REPO}#${PR_NUMBER}`;

/**
 * The fake model's queue for MODEL_ID, one behaviour per request, in order: the tool call, the
 * answer after the tool result, then the session title Iris asks for once the run is done (the
 * title slot is on auto, so it uses the main model).
 */
export const SCRIPT: readonly FakeBehaviour[] = [
  { kind: 'tool_calls', calls: [{ id: 'call_demo_1', name: 'run_command', arguments: { command: TOOL_COMMAND } }] },
  { kind: 'text', deltas: splitDeltas(SCRIPTED_ANSWER) },
  { kind: 'text', deltas: [SCRIPTED_TITLE] },
];

/** Streamed in small pieces, as a real model would. */
function splitDeltas(text: string): string[] {
  return text.match(/[\s\S]{1,24}/g) ?? [text];
}

/** The route's prompt: `{path}` placeholders are filled from the payload for each event. */
export const PROMPT_TEMPLATE = [
  'Review pull request #{number} in {repository.full_name}: "{pull_request.title}"',
  'by @{pull_request.user.login} ({pull_request.head.ref} → {pull_request.base.ref}), {pull_request.html_url}',
  '',
  'Description:',
  '{pull_request.body}',
  '',
  'Read the diff with `gh pr diff {number} --repo {repository.full_name}`, then write a short review for the pull request thread.',
].join('\n');

/** config.yaml for the temporary IRIS_HOME. JSON strings are valid YAML double-quoted scalars. */
export function configYaml(options: { secret: string; workspace: string }): string {
  const prompt = PROMPT_TEMPLATE.split('\n')
    .map((line) => (line === '' ? '' : `            ${line}`))
    .join('\n');
  return `# Written by npm run demo (scripts/demo.ts) into a temporary IRIS_HOME, removed when the demo ends.
model:
  provider: openai            # the fake model speaks the OpenAI API; OPENAI_BASE_URL points at it
  default: ${MODEL_ID}
# The default policy: a command the agent asks for is refused when no one is there to approve it.
approval_mode: manual
agent:
  workspace: ${JSON.stringify(options.workspace)}
platforms:
  webhook:
    enabled: true
    extra:
      host: 127.0.0.1         # loopback only
      port: 0                 # any free port: the gateway prints the one it got
      routes:
        ${ROUTE}:
          secret: ${JSON.stringify(options.secret)}
          events: [pull_request]
          filters:
            - field: action
              in: [opened, synchronize, reopened]
          prompt: |
${prompt}
          deliver: forge_comment
          deliver_extra:
            repo: "{repository.full_name}"
            pr_number: "{number}"
`;
}

/** A trimmed GitHub `pull_request` `opened` payload (the fields a route usually reads, and a few more). */
export function pullRequestPayload(): Record<string, unknown> {
  const owner = { login: 'octo-org', id: 6811672, type: 'Organization', html_url: 'https://github.com/octo-org' };
  const user = { login: 'octocat', id: 583231, type: 'User', html_url: 'https://github.com/octocat' };
  const repository = {
    id: 1296269,
    name: 'hello-world',
    full_name: REPO,
    private: false,
    owner,
    html_url: `https://github.com/${REPO}`,
    default_branch: 'main',
  };
  return {
    action: 'opened',
    number: PR_NUMBER,
    pull_request: {
      id: 2_147_480_042,
      number: PR_NUMBER,
      state: 'open',
      draft: false,
      title: 'Add a greeting to the README',
      body: 'This adds a short greeting at the top of the README, so first-time visitors feel welcome.\n\nCloses #41.',
      user,
      html_url: `https://github.com/${REPO}/pull/${PR_NUMBER}`,
      diff_url: `https://github.com/${REPO}/pull/${PR_NUMBER}.diff`,
      head: { label: 'octocat:feature/greeting', ref: 'feature/greeting', sha: '6dcb09b5b57875f334f61aebed695e2e4193db5e', user, repo: repository },
      base: { label: 'octo-org:main', ref: 'main', sha: '9049f1265b7d61be4a8904a9a27120d2064dab3b', user: owner, repo: repository },
      created_at: '2025-01-15T09:30:00Z',
      updated_at: '2025-01-15T09:30:00Z',
      commits: 1,
      additions: 2,
      deletions: 0,
      changed_files: 1,
    },
    repository,
    organization: { login: 'octo-org', id: 6811672 },
    sender: user,
  };
}
