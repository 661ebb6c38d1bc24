// `iris chat`: the REPL, and `iris chat -q "<prompt>"`, which prints only the final answer on
// stdout (tool progress on stderr, then `session: <id>` as the last line there) and exits 0, or
// non-zero with the error; with --json, one object instead of the answer.
import { createInterface, type Interface } from 'node:readline';
import { loadOAuthView } from '../../auth/view.js';
import { NoMainModelError, type Agent, type AgentSession, type TurnEvents, type TurnResult } from '../../agent/agent.js';
import { resolveModelTarget } from '../../agent/model-command.js';
import { switchSessionModel } from '../../agent/model-switch.js';
import { createAgentRuntime, ToolsetError } from '../../agent/runtime.js';
import { configuredMain } from '../../agent/session-routes.js';
import type { ApprovalRequest, RiskAssessment, ToolResult } from '../../agent/tools/types.js';
import { findSession } from '../../agent/sessions/find-session.js';
import type { ContentPart, ToolCall } from '../../domain/messages.js';
import { NO_MAIN_MODEL } from '../../domain/setup-hint.js';
import type { Store } from '../../store/types.js';
import { redactText } from '../../log/redact.js';
import { printJson, printWarning, stdoutClosed, writeStdout } from '../console.js';
import { openConfig, openEnv, openHome } from '../context.js';
import { CliFailure } from '../exit-codes.js';
import { oneShotJson } from './chat-json.js';
import { withWaiting } from './chat-waiting.js';
import { loadChatImages, withImages } from './chat-images.js';
import { parseSessionCommand, runSessionCommand } from './chat-session-commands.js';

export type ChatOptions = {
  q?: string;
  json?: boolean;
  model?: string;
  provider?: string;
  session?: string;
  continueLast?: boolean;
  /** Paths or URLs of images for the first message (-q's prompt, or the first line typed). */
  images?: readonly string[];
};

/** Exit codes of a one-shot run, by how the turn stopped. */
const STOP_EXIT: Readonly<Record<TurnResult['stopReason'], number>> = { done: 0, error: 1, max_iterations: 3, cancelled: 130 };

const HELP = `commands:
  /model <name-or-alias> [--provider <p>] [--global]   switch this session's model (--global: also config.yaml)
  /new                                                 start a new session
  /sessions                                            the recent sessions
  /resume <id-or-title>                                continue another session
  /title <text>                                        name this session
  /help                                                this list
  /exit                                                leave (Ctrl-D works too)
Ctrl-C stops a running answer and keeps the session.`;

function argsPreview(call: ToolCall): string {
  const text = JSON.stringify(call.arguments);
  return redactText(text.length > 120 ? `${text.slice(0, 117)}…` : text);
}

function progress(write: (text: string) => void): TurnEvents {
  return {
    onToolStart: (call) => write(`  → ${call.name} ${argsPreview(call)}\n`),
    onToolEnd: (call: ToolCall, result: ToolResult) => {
      if (!result.ok) write(`  ✗ ${call.name}: ${redactText(result.content.split('\n')[0] ?? '').slice(0, 200)}\n`);
    },
    onNotice: (text) => write(`  · ${text}\n`),
  };
}

export async function chat(options: ChatOptions): Promise<number> {
  const paths = await openHome();
  const env = await openEnv(paths);
  const loaded = await openConfig(paths);
  const oauth = await loadOAuthView(paths);
  if (oauth.problem) printWarning(oauth.problem);
  const oneShot = options.q !== undefined;
  checkChatOptions(options);
  // Refused before the runtime opens anything: a first try on a fresh home leaves no state.db or logs/.
  if (startsWithoutModel(options, loaded.config)) throw new CliFailure('invalid_value', NO_MAIN_MODEL);
  const tty = Boolean(process.stdin.isTTY && process.stdout.isTTY);
  let rl: Interface | undefined;
  let lines: AsyncIterator<string> | undefined;
  // One reader for the prompt loop and the approval questions: lines typed (or piped) ahead of
  // a question are buffered by the iterator instead of being lost.
  const nextLine = async (prompt: string): Promise<string | undefined> => {
    if (!lines) return undefined;
    if (prompt) writeStdout(prompt);
    const step = await lines.next();
    return step.done ? undefined : step.value;
  };

  const askUser = async (request: ApprovalRequest, risk: RiskAssessment): Promise<boolean> => {
    const why = risk.reasons.length ? ` (${risk.reasons.join('; ')})` : '';
    const answer = await nextLine(`  ? run \`${request.command}\` in ${request.cwd}${why} [y/N] `);
    return /^y(es)?$/i.test((answer ?? '').trim());
  };

  let runtime;
  try {
    runtime = await createAgentRuntime({
      paths,
      env,
      oauth: oauth.view,
      config: loaded.config,
      // The user's own terminal: no sandbox unless tools.terminal.sandbox is bubblewrap.
      runKind: 'cli',
      ...(tty || !oneShot ? { askUser } : {}),
      onApproval: (request, decision) => {
        if (!decision.approved) process.stderr.write(`  ✗ not run: ${request.command} — ${decision.reason}\n`);
      },
    });
  } catch (err) {
    if (err instanceof ToolsetError) throw new CliFailure('invalid_value', `agent.toolsets: ${err.message}`);
    throw err;
  }
  const { agent, store } = runtime;
  let session: AgentSession | undefined;
  try {
    let images = await loadChatImages(options.images ?? [], runtime.vision);
    session = await openSession(agent, store, options, loaded.config);
    if (oneShot) {
      const note = (line: string) => process.stderr.write(`  · ${line}\n`);
      const prompt = await withImages(options.q as string, images, session.record, runtime.vision, note);
      return await oneShotTurn(agent, session, prompt, options.json === true);
    }

    rl = createInterface({ input: process.stdin, ...(tty ? { output: process.stdout } : {}), terminal: tty });
    lines = rl[Symbol.asyncIterator]();
    writeStdout(`iris chat — session ${session.record.id} on ${session.record.provider} · ${session.record.model} (/help for commands)\n`);
    for (;;) {
      // The reader of the answers has gone (`iris chat < questions.txt | head`): no more turns.
      if (stdoutClosed()) break;
      const line = await nextLine(tty ? '› ' : '');
      if (line === undefined) break; // input closed (Ctrl-D or end of piped input)
      const text = line.trim();
      if (!text) continue;
      if (text === '/exit' || text === '/quit') break;
      if (text === '/help') {
        writeStdout(`${HELP}\n`);
        continue;
      }
      if (text === '/new') {
        session = await agent.newSession('cli');
        writeStdout(`new session ${session.record.id}\n`);
        continue;
      }
      const command = parseSessionCommand(text);
      if (command) {
        const outcome = await runSessionCommand(command, { agent, store, current: session });
        session = outcome.session;
        writeStdout(`${outcome.text}\n`);
        continue;
      }
      if (text === '/model' || text.startsWith('/model ')) {
        writeStdout(`${await switchSessionModel(agent, session, text, loaded.config, paths)}\n`);
        continue;
      }
      if (text.startsWith('/')) {
        writeStdout(`unknown command ${text.split(/\s/)[0]}; /help lists them\n`);
        continue;
      }
      const message = images.length ? await withImages(text, images, session.record, runtime.vision, (l) => writeStdout(`  · ${l}\n`)) : text;
      images = [];
      await interactiveTurn(agent, session, message, rl);
    }
    writeStdout(`resume: iris chat --session ${session.record.id}\n`);
    return 0;
  } catch (err) {
    if (err instanceof NoMainModelError) throw new CliFailure('invalid_value', err.message);
    throw err;
  } finally {
    rl?.close();
    await runtime.close();
    // Last on stderr, whatever happened to the turn, so a script can always pick it up.
    if (oneShot && session) process.stderr.write(`session: ${session.record.id}\n`);
  }
}

/** A new session with no model to start on: none configured and none given. */
function startsWithoutModel(options: ChatOptions, config: Parameters<typeof configuredMain>[0]): boolean {
  const resumes = options.session !== undefined || options.continueLast === true;
  return !resumes && options.model === undefined && options.provider === undefined && configuredMain(config) === undefined;
}

/** Usage errors found before anything is opened. */
function checkChatOptions(options: ChatOptions): void {
  if (options.q !== undefined && options.q.trim() === '') throw new CliFailure('usage', '-q needs a prompt');
  if (options.json && options.q === undefined) throw new CliFailure('usage', '--json needs -q: the interactive chat prints as it goes');
  if (options.session !== undefined && options.continueLast) throw new CliFailure('usage', '--session and --continue both choose the session; give one');
  if (options.session !== undefined && options.session.trim() === '') throw new CliFailure('usage', '--session needs an id or a title');
  if ((options.session !== undefined || options.continueLast) && (options.model || options.provider)) {
    throw new CliFailure('usage', '--model and --provider choose a new session\'s model; a resumed session keeps its own (switch it with /model)');
  }
}

async function openSession(agent: Agent, store: Store, options: ChatOptions, config: Parameters<typeof configuredMain>[0]): Promise<AgentSession> {
  if (options.session !== undefined) {
    const found = await findSession(store, options.session);
    if (!found.ok) throw new CliFailure('not_found', found.message);
    return resumeOrFail(agent, found.session.id);
  }
  if (options.continueLast) {
    const [latest] = await store.listSessions({ source: 'cli', limit: 1 });
    if (!latest) throw new CliFailure('not_found', 'there is no CLI session to continue yet; iris chat starts one');
    return resumeOrFail(agent, latest.id);
  }
  if (options.model || options.provider) {
    const current = configuredMain(config);
    const target = resolveModelTarget(
      { name: options.model ?? current?.model ?? '', ...(options.provider ? { provider: options.provider } : {}), global: false },
      config,
      current?.provider ?? options.provider ?? '',
    );
    if (!target.ok) throw new CliFailure('invalid_value', target.message);
    return agent.newSession('cli', target);
  }
  return agent.newSession('cli');
}

async function resumeOrFail(agent: Agent, id: string): Promise<AgentSession> {
  const resumed = await agent.resumeSession(id);
  if (!resumed) throw new CliFailure('not_found', `session ${id} was deleted meanwhile`);
  return resumed;
}

async function oneShotTurn(agent: Agent, session: AgentSession, prompt: string | readonly ContentPart[], json: boolean): Promise<number> {
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    // The spinner goes to stderr, and only when stderr is a terminal: stdout stays the answer alone.
    const waiting = withWaiting(progress((t) => process.stderr.write(t)), process.stderr, () => `${session.record.provider} · ${session.record.model}`);
    let result: TurnResult;
    try {
      result = await agent.runTurn(session, prompt, waiting.events, controller.signal);
    } finally {
      waiting.stop();
    }
    if (result.stopReason === 'error') process.stderr.write(`iris: error: ${redactText(result.error?.message ?? 'the model call failed')}\n`);
    if (json) printJson(oneShotJson(session, result));
    else if (result.stopReason !== 'error') writeStdout(result.text.endsWith('\n') ? result.text : `${result.text}\n`);
    if (result.stopReason === 'max_iterations' || result.stopReason === 'cancelled') process.stderr.write(`iris: stopped: ${result.stopReason}\n`);
    return STOP_EXIT[result.stopReason];
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}

async function interactiveTurn(agent: Agent, session: AgentSession, text: string | readonly ContentPart[], rl: Interface): Promise<void> {
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  rl.on('SIGINT', onSigint);
  process.once('SIGINT', onSigint);
  try {
    // Notes and tool lines start on a line of their own, even right after streamed text.
    let midLine = false;
    const line = (t: string) => {
      writeStdout(midLine ? `\n${t}` : t);
      midLine = false;
    };
    const events = {
      ...progress(line),
      onText: (delta: string) => {
        writeStdout(delta);
        if (delta) midLine = !delta.endsWith('\n');
      },
    };
    const waiting = withWaiting(events, process.stdout, () => `${session.record.provider} · ${session.record.model}`);
    let result: TurnResult;
    try {
      result = await agent.runTurn(session, text, waiting.events, controller.signal);
    } finally {
      waiting.stop();
    }
    if (midLine) writeStdout('\n');
    if (result.stopReason === 'error') writeStdout(`error: ${redactText(result.error?.message ?? 'the model call failed')}\n`);
    if (result.stopReason === 'cancelled') writeStdout('(stopped; the session is kept)\n');
    if (result.stopReason === 'max_iterations') writeStdout(`${result.text.split('\n').at(-1)}\n`);
  } finally {
    rl.removeListener('SIGINT', onSigint);
    process.removeListener('SIGINT', onSigint);
  }
}
