// The first contents of $IRIS_HOME/gateway.env, the service's EnvironmentFile=. Only comments: the
// file is created once, 0600, and never rewritten, so what the owner puts there stays theirs.
export const GATEWAY_ENV_FILE = 'gateway.env';

export function gatewayEnvTemplate(home: string): string {
  return [
    '# Environment for the iris-gateway systemd service (its EnvironmentFile=). Keep this file 0600.',
    '# One NAME=value per line; no "export", no shell expansion. systemd reads it at every start:',
    '# after a change, restart the service.',
    '#',
    `# Iris also reads ${home}/.env (what \`iris config set NAME value\` writes). A name set in`,
    '# both places takes the value from this file, as the process environment wins over .env.',
    '#',
    '# Provider keys, for example:',
    '# OPENAI_API_KEY=',
    '# ANTHROPIC_API_KEY=',
    '# OPENROUTER_API_KEY=',
    '#',
    '# For forge_comment deliveries, a token for gh (a service cannot run `gh auth login`):',
    '# GH_TOKEN=',
    '#',
    '# The gateway runs `gh` and the agent\'s terminal tool with the service\'s PATH, which is',
    '# systemd\'s default; widen it here if they need more:',
    '# PATH=/usr/local/bin:/usr/bin:/bin',
    '',
  ].join('\n');
}
