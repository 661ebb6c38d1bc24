// What a tool is to the agent loop: a definition the model sees, and a run function whose
// failures come back as results for the model to read (never as throws that end the run).
import type { HomePaths } from '../../config/home.js';
import type { ToolDefinition } from '../../providers/wire/types.js';
import type { AuxTaskId } from '../../domain/slots.js';
import type { TaskRequest } from '../../routing/call-model.js';
import type { KanbanBoard } from '../../store/kanban-types.js';

export type RiskLevel = 'low' | 'high';

export type RiskAssessment = {
  readonly level: RiskLevel;
  /** Why: the dangerous patterns matched, or the approval slot's reason. */
  readonly reasons: readonly string[];
  readonly source: 'pattern' | 'model' | 'default';
};

export type ApprovalRequest = {
  readonly command: string;
  readonly cwd: string;
};

export type ApprovalDecision = {
  readonly approved: boolean;
  /** Recorded with the tool result and in the session. */
  readonly reason: string;
  readonly by: 'user' | 'policy' | 'model';
  readonly risk: RiskAssessment;
};

export type SideJobText = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: string };

/** A side-job through an aux slot on the session's routes, its usage recorded against the session. */
export type SideJobCall = (task: AuxTaskId, request: TaskRequest) => Promise<SideJobText>;

export type ToolContext = {
  /** Files tools stay inside this folder; the terminal starts here. */
  readonly workspaceRoot: string;
  readonly home: HomePaths;
  readonly signal?: AbortSignal;
  /** Asks whether a terminal command may run (approval mode, patterns, the approval slot). */
  readonly approve: (request: ApprovalRequest) => Promise<ApprovalDecision>;
  /** Given by the agent loop; a tool used without a session (tests, a listing) falls back to its own wiring. */
  readonly sideJob?: SideJobCall;
  /** The session's store's board (kanban_* tools); absent outside a session. */
  readonly kanban?: KanbanBoard;
  /** Records a skill load against the session (the curator's usage data); absent outside a session. */
  readonly recordSkillLoad?: (skill: string) => Promise<void>;
};

export type ToolResult = {
  readonly ok: boolean;
  /** What the model reads back (already capped in size). */
  readonly content: string;
};

export type Tool = {
  readonly definition: ToolDefinition;
  /** True when the tool never changes anything (the webhook toolset only gets these, plus terminal). */
  readonly readOnly: boolean;
  run(args: Readonly<Record<string, unknown>>, context: ToolContext): Promise<ToolResult>;
};

export type Toolset = {
  readonly name: string;
  readonly tools: readonly Tool[];
};
