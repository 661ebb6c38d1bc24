// Every command group, in the order `iris --help` lists them. Only the bundle for help and unknown
// commands holds them all (scripts/build.mjs): a run of one command loads its own group alone.
// A new group: a file in this folder, and one line here.
import type { Command } from 'commander';
import type { SetExitCode } from '../command-group.js';
import { registerVersion } from './version.js';
import { registerConfig } from './config.js';
import { registerStatus } from './status.js';
import { registerUsage } from './usage.js';
import { registerLogs } from './logs.js';
import { registerChat } from './chat.js';
import { registerSessions } from './sessions.js';
import { registerGateway } from './gateway.js';
import { registerWebhook } from './webhook.js';
import { registerPairing } from './pairing.js';
import { registerSlack } from './slack.js';
import { registerDashboard } from './dashboard.js';
import { registerSetup } from './setup.js';
import { registerAuth } from './auth.js';
import { registerDoctor } from './doctor.js';
import { registerModel } from './model.js';
import { registerStore } from './store.js';
import { registerMcp } from './mcp.js';
import { registerKanban } from './kanban.js';
import { registerCurator } from './curator.js';
import { registerSkills } from './skills.js';
import { registerProfile } from './profile.js';
import { registerSend } from './send.js';
import { registerCompletion } from './completion.js';


/** The command groups, each under its top-level command, in the order `iris --help` lists them. */
export const GROUPS: CommandGroups = [
  ['version', registerVersion],
  ['config', registerConfig],
  ['status', registerStatus],
  ['usage', registerUsage],
  ['logs', registerLogs],
  ['chat', registerChat],
  ['sessions', registerSessions],
  ['gateway', registerGateway],
  ['webhook', registerWebhook],
  ['send', registerSend],
  ['pairing', registerPairing],
  ['slack', registerSlack],
  ['store', registerStore],
  ['dashboard', registerDashboard],
  ['setup', registerSetup],
  ['auth', registerAuth],
  ['doctor', registerDoctor],
  ['model', registerModel],
  ['mcp', registerMcp],
  ['kanban', registerKanban],
  ['curator', registerCurator],
  ['skills', registerSkills],
  ['profile', registerProfile],
  ['completion', registerCompletion],
];

export type CommandGroups = ReadonlyArray<readonly [string, (program: Command, setExit: SetExitCode) => void]>;
