// `/model <name> [--provider <p>] [--global]` applied to a session, in the CLI chat and in a chat
// platform alike: the answer is the text shown to the user.
import type { HomePaths } from '../config/home.js';
import type { Config } from '../config/schema.js';
import { updateConfig } from '../config/store.js';
import { setMainModel } from '../routing/assignments.js';
import type { Agent, AgentSession } from './agent.js';
import { modelChoicesText, parseModelCommand, resolveModelTarget } from './model-command.js';

/** What a /model command did: the text shown to the user and, for --global, what became of config.yaml. */
export type ModelSwitch = {
  readonly text: string;
  /** Set when --global was understood: whether the main model was written (`provider/model`), or why not. */
  readonly global?: { readonly ok: boolean; readonly model: string; readonly reason?: string };
};

export async function applyModelCommand(agent: Agent, session: AgentSession, line: string, config: Readonly<Config>, paths: HomePaths): Promise<ModelSwitch> {
  if (line.trim() === '/model') return { text: modelChoicesText(session.record, config) };
  const parsed = parseModelCommand(line);
  if (!parsed.ok) return { text: parsed.message };
  const target = resolveModelTarget(parsed.command, config, session.record.provider);
  if (!target.ok) {
    const text = `${target.message}; the session stays on ${session.record.provider} · ${session.record.model}`;
    return parsed.command.global ? { text, global: { ok: false, model: parsed.command.name, reason: target.message } } : { text };
  }
  const { overThreshold } = await agent.switchModel(session, target);
  const lines = [
    `session now on ${target.provider} · ${target.model}`,
    'note: the prompt cache starts over: the next message re-reads the whole conversation at full input price',
  ];
  if (overThreshold) lines.push('note: the conversation is over the new model\'s compression threshold: it will be compressed on your next message');
  if (!parsed.command.global) return { text: lines.join('\n') };
  const model = `${target.provider}/${target.model}`;
  const written = await updateConfig(paths, (doc) => setMainModel(doc, target.provider, target.model));
  lines.push(written.ok ? `config.yaml: main model set to ${target.provider} · ${target.model} (new sessions)` : `config.yaml not changed: ${written.error.message}`);
  return { text: lines.join('\n'), global: written.ok ? { ok: true, model } : { ok: false, model, reason: written.error.message } };
}

export async function switchSessionModel(agent: Agent, session: AgentSession, line: string, config: Readonly<Config>, paths: HomePaths): Promise<string> {
  return (await applyModelCommand(agent, session, line, config, paths)).text;
}
