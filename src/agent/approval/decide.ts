// May this terminal command run? The approval policy as one function over the mode, the pattern
// assessment and whether anyone is there to ask. Asking the user and scoring with the approval
// model are injected, so the function does no I/O of its own and every branch is tested.
//
// The rule throughout: doubt is high risk. A dangerous pattern is high risk whatever the model
// says; a scorer that fails, or is missing, counts as a high score; high risk is asked when a
// user is there and denied when not.
import type { Config } from '../../config/schema.js';
import type { ApprovalDecision, ApprovalRequest, RiskAssessment, RiskLevel } from '../tools/types.js';
import type { CommandAssessment } from './patterns.js';
import { errorMessage } from '../../domain/error-message.js';

export type ApprovalMode = Config['approval_mode'];

/** The approval model's verdict, or why there is none (a failed call, an unreadable answer). */
export type ModelRiskScore =
  | { readonly ok: true; readonly level: RiskLevel; readonly reason: string }
  | { readonly ok: false; readonly error: string };

/** Shows the request and the risk to the user; true to run the command. */
export type AskUser = (request: ApprovalRequest, risk: RiskAssessment) => Promise<boolean>;

/** Scores the command with the `approval` aux slot. */
export type ScoreWithModel = (command: string, cwd: string) => Promise<ModelRiskScore>;

export type ApprovalInput = {
  readonly mode: ApprovalMode;
  readonly command: string;
  readonly cwd: string;
  /** From `assessCommand(command)`. */
  readonly assessment: CommandAssessment;
  /** True when a user can answer a prompt now (a chat session), false in unattended runs (webhooks). */
  readonly interactive: boolean;
  readonly askUser?: AskUser;
  readonly scoreWithModel?: ScoreWithModel;
};

export const UNATTENDED = 'no one to ask in an unattended run';

export async function decideApproval(input: ApprovalInput): Promise<ApprovalDecision> {
  const patternRisk: RiskAssessment = input.assessment.dangerous
    ? { level: 'high', reasons: input.assessment.reasons, source: 'pattern' }
    : { level: 'low', reasons: [], source: 'default' };
  switch (input.mode) {
    case 'off':
      return { approved: true, reason: 'approval_mode: off', by: 'policy', risk: patternRisk };
    case 'manual':
      if (!input.interactive) {
        return { approved: false, reason: `approval_mode manual: ${UNATTENDED}`, by: 'policy', risk: patternRisk };
      }
      return ask(input, patternRisk);
    case 'smart': {
      if (input.assessment.dangerous) return askOrDeny(input, patternRisk, 'policy');
      const risk = await scoreRisk(input);
      if (risk.level === 'low') {
        return { approved: true, reason: withReason('approval model: low risk', risk.reasons[0]), by: 'model', risk };
      }
      return askOrDeny(input, risk, risk.source === 'model' ? 'model' : 'policy');
    }
  }
}

async function scoreRisk(input: ApprovalInput): Promise<RiskAssessment> {
  if (!input.scoreWithModel) {
    return { level: 'high', reasons: ['no approval model to score the command: counted as high risk'], source: 'default' };
  }
  let score: ModelRiskScore;
  try {
    score = await input.scoreWithModel(input.command, input.cwd);
  } catch (err) {
    score = { ok: false, error: errorMessage(err) };
  }
  if (!score.ok) {
    return { level: 'high', reasons: [`the approval model failed (${score.error}): counted as high risk`], source: 'default' };
  }
  return { level: score.level, reasons: score.reason === '' ? [] : [score.reason], source: 'model' };
}

/** High risk: the user decides when there is one; otherwise it is denied, saying why. */
function askOrDeny(input: ApprovalInput, risk: RiskAssessment, by: 'policy' | 'model'): Promise<ApprovalDecision> | ApprovalDecision {
  if (input.interactive) return ask(input, risk);
  const why = risk.source === 'model' ? withReason('approval model: high risk', risk.reasons[0]) : `high risk (${risk.reasons.join('; ')})`;
  return { approved: false, reason: `approval_mode smart: ${why}; ${UNATTENDED}`, by, risk };
}

async function ask(input: ApprovalInput, risk: RiskAssessment): Promise<ApprovalDecision> {
  if (!input.askUser) {
    return { approved: false, reason: 'no way to ask the user in this session', by: 'policy', risk };
  }
  try {
    const yes = await input.askUser({ command: input.command, cwd: input.cwd }, risk);
    return { approved: yes, reason: yes ? 'approved by the user' : 'denied by the user', by: 'user', risk };
  } catch (err) {
    const message = errorMessage(err);
    return { approved: false, reason: `could not ask the user: ${message}`, by: 'policy', risk };
  }
}

function withReason(head: string, reason: string | undefined): string {
  return reason ? `${head}: ${reason}` : head;
}
