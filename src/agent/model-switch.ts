// `/model <name> [--provider <p>] [--global]` applied to a session, in the CLI chat and in a chat
// platform alike: the answer is the text shown to the user.
import type { HomePaths } from '../config/home.js';
import type { Config } from '../config/schema.js';
import { updateConfig } from '../config/store.js';
import { setMainModel } from '../routing/assignments.js';
import type { Agent, AgentSession } from './agent.js';
import { modelChoicesText, parseModelCommand, resolveModelTarget } from './model-command.js';

export async function switchSessionModel(agent: Agent, session: AgentSession, line: string, config: Readonly<Config>, paths: HomePaths): Promise<string> {
  if (line.trim() === '/model') return modelChoicesText(session.record, config);
  const parsed = parseModelCommand(line);
  if (!parsed.ok) return parsed.message;
  const target = resolveModelTarget(parsed.command, config, session.record.provider);
  if (!target.ok) return `${target.message}; the session stays on ${session.record.provider} · ${session.record.model}`;
  const { overThreshold } = await agent.switchModel(session, target);
  const lines = [
    `session now on ${target.provider} · ${target.model}`,
    'note: the prompt cache starts over: the next message re-reads the whole conversation at full input price',
  ];
  if (overThreshold) lines.push('note: the conversation is over the new model\'s compression threshold: it will be compressed on your next message');
  if (parsed.command.global) {
    const written = await updateConfig(paths, (doc) => setMainModel(doc, target.provider, target.model));
    lines.push(written.ok ? `config.yaml: main model set to ${target.provider} · ${target.model} (new sessions)` : `config.yaml not changed: ${written.error.message}`);
  }
  return lines.join('\n');
}
