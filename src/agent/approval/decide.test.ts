import { describe, expect, it } from 'vitest';
import type { ApprovalRequest, RiskAssessment } from '../tools/types.js';
import { decideApproval, type ApprovalInput, type ModelRiskScore } from './decide.js';
import { assessCommand } from './patterns.js';

const SAFE = 'npm test';
const DANGEROUS = 'rm -rf build';
const CWD = '/work/repo';
const PATTERN_HIGH: RiskAssessment = { level: 'high', reasons: ['recursive delete (rm -r)'], source: 'pattern' };
const DEFAULT_LOW: RiskAssessment = { level: 'low', reasons: [], source: 'default' };

type Calls = { asked: Array<[ApprovalRequest, RiskAssessment]>; scored: Array<[string, string]> };

function setup(
  overrides: Partial<ApprovalInput> & { command: string; answer?: boolean; score?: ModelRiskScore | Error },
): { input: ApprovalInput; calls: Calls } {
  const calls: Calls = { asked: [], scored: [] };
  const { answer, score, ...rest } = overrides;
  const input: ApprovalInput = {
    mode: 'manual',
    cwd: CWD,
    assessment: assessCommand(overrides.command),
    interactive: true,
    askUser: async (request, risk) => {
      calls.asked.push([request, risk]);
      return answer ?? true;
    },
    scoreWithModel: async (command, cwd) => {
      calls.scored.push([command, cwd]);
      if (score instanceof Error) throw score;
      return score ?? { ok: true, level: 'low', reason: 'runs the tests' };
    },
    ...rest,
  };
  return { input, calls };
}

describe('decideApproval: off', () => {
  it('approves everything without asking or scoring, recording the pattern risk', async () => {
    for (const [command, risk] of [
      [SAFE, DEFAULT_LOW],
      [DANGEROUS, PATTERN_HIGH],
    ] as const) {
      const { input, calls } = setup({ mode: 'off', command, interactive: false });
      expect(await decideApproval(input)).toEqual({ approved: true, reason: 'approval_mode: off', by: 'policy', risk });
      expect(calls).toEqual({ asked: [], scored: [] });
    }
  });
});

describe('decideApproval: manual', () => {
  it('asks the user about every command in an interactive session', async () => {
    const safe = setup({ command: SAFE, answer: true });
    expect(await decideApproval(safe.input)).toEqual({ approved: true, reason: 'approved by the user', by: 'user', risk: DEFAULT_LOW });
    expect(safe.calls).toEqual({ asked: [[{ command: SAFE, cwd: CWD }, DEFAULT_LOW]], scored: [] });

    const dangerous = setup({ command: DANGEROUS, answer: false });
    expect(await decideApproval(dangerous.input)).toEqual({ approved: false, reason: 'denied by the user', by: 'user', risk: PATTERN_HIGH });
    expect(dangerous.calls.asked).toEqual([[{ command: DANGEROUS, cwd: CWD }, PATTERN_HIGH]]);
  });

  it('denies every command in an unattended run', async () => {
    for (const command of [SAFE, DANGEROUS]) {
      const { input, calls } = setup({ command, interactive: false });
      const decision = await decideApproval(input);
      expect(decision).toMatchObject({
        approved: false,
        reason: 'approval_mode manual: no one to ask in an unattended run',
        by: 'policy',
      });
      expect(calls).toEqual({ asked: [], scored: [] });
    }
  });

  it('denies when there is no way to ask, or asking fails', async () => {
    const noPrompt = setup({ command: SAFE, askUser: undefined });
    expect(await decideApproval(noPrompt.input)).toEqual({
      approved: false,
      reason: 'no way to ask the user in this session',
      by: 'policy',
      risk: DEFAULT_LOW,
    });
    const broken = setup({
      command: SAFE,
      askUser: async () => {
        throw new Error('the terminal closed');
      },
    });
    expect(await decideApproval(broken.input)).toEqual({
      approved: false,
      reason: 'could not ask the user: the terminal closed',
      by: 'policy',
      risk: DEFAULT_LOW,
    });
  });
});

describe('decideApproval: smart', () => {
  it('treats a dangerous pattern as high risk without consulting the model, asking when interactive', async () => {
    const { input, calls } = setup({ mode: 'smart', command: DANGEROUS, answer: true });
    expect(await decideApproval(input)).toEqual({ approved: true, reason: 'approved by the user', by: 'user', risk: PATTERN_HIGH });
    expect(calls).toEqual({ asked: [[{ command: DANGEROUS, cwd: CWD }, PATTERN_HIGH]], scored: [] });
  });

  it('denies a dangerous pattern in an unattended run, naming it', async () => {
    const { input, calls } = setup({ mode: 'smart', command: DANGEROUS, interactive: false });
    expect(await decideApproval(input)).toEqual({
      approved: false,
      reason: 'approval_mode smart: high risk (recursive delete (rm -r)); no one to ask in an unattended run',
      by: 'policy',
      risk: PATTERN_HIGH,
    });
    expect(calls).toEqual({ asked: [], scored: [] });
  });

  it('runs what the model scores low, without asking, interactive or not', async () => {
    for (const interactive of [true, false]) {
      const { input, calls } = setup({ mode: 'smart', command: SAFE, interactive });
      expect(await decideApproval(input)).toEqual({
        approved: true,
        reason: 'approval model: low risk: runs the tests',
        by: 'model',
        risk: { level: 'low', reasons: ['runs the tests'], source: 'model' },
      });
      expect(calls).toEqual({ asked: [], scored: [[SAFE, CWD]] });
    }
  });

  it('asks about what the model scores high when interactive', async () => {
    const risk: RiskAssessment = { level: 'high', reasons: ['publishes a package'], source: 'model' };
    const { input, calls } = setup({ mode: 'smart', command: 'npm publish', answer: false, score: { ok: true, level: 'high', reason: 'publishes a package' } });
    expect(await decideApproval(input)).toEqual({ approved: false, reason: 'denied by the user', by: 'user', risk });
    expect(calls.asked).toEqual([[{ command: 'npm publish', cwd: CWD }, risk]]);
  });

  it('denies what the model scores high in an unattended run, with the model\'s reason', async () => {
    const { input } = setup({
      mode: 'smart',
      command: 'npm publish',
      interactive: false,
      score: { ok: true, level: 'high', reason: 'publishes a package' },
    });
    expect(await decideApproval(input)).toEqual({
      approved: false,
      reason: 'approval_mode smart: approval model: high risk: publishes a package; no one to ask in an unattended run',
      by: 'model',
      risk: { level: 'high', reasons: ['publishes a package'], source: 'model' },
    });
  });

  it('leaves out an empty model reason', async () => {
    const { input } = setup({ mode: 'smart', command: SAFE, score: { ok: true, level: 'low', reason: '' } });
    expect(await decideApproval(input)).toEqual({
      approved: true,
      reason: 'approval model: low risk',
      by: 'model',
      risk: { level: 'low', reasons: [], source: 'model' },
    });
  });

  it('counts a failing scorer as high risk and says so', async () => {
    const failed: RiskAssessment = {
      level: 'high',
      reasons: ['the approval model failed (rate_limited: slow down): counted as high risk'],
      source: 'default',
    };
    const unattended = setup({ mode: 'smart', command: SAFE, interactive: false, score: { ok: false, error: 'rate_limited: slow down' } });
    expect(await decideApproval(unattended.input)).toEqual({
      approved: false,
      reason:
        'approval_mode smart: high risk (the approval model failed (rate_limited: slow down): counted as high risk); no one to ask in an unattended run',
      by: 'policy',
      risk: failed,
    });
    const interactive = setup({ mode: 'smart', command: SAFE, answer: true, score: { ok: false, error: 'rate_limited: slow down' } });
    expect(await decideApproval(interactive.input)).toEqual({ approved: true, reason: 'approved by the user', by: 'user', risk: failed });
    expect(interactive.calls.asked).toEqual([[{ command: SAFE, cwd: CWD }, failed]]);
  });

  it('counts a scorer that throws as failed', async () => {
    const { input } = setup({ mode: 'smart', command: SAFE, interactive: false, score: new Error('socket hang up') });
    expect(await decideApproval(input)).toMatchObject({
      approved: false,
      by: 'policy',
      risk: { level: 'high', reasons: ['the approval model failed (socket hang up): counted as high risk'], source: 'default' },
    });
  });

  it('counts a missing scorer as high risk', async () => {
    const { input } = setup({ mode: 'smart', command: SAFE, interactive: false, scoreWithModel: undefined });
    expect(await decideApproval(input)).toEqual({
      approved: false,
      reason:
        'approval_mode smart: high risk (no approval model to score the command: counted as high risk); no one to ask in an unattended run',
      by: 'policy',
      risk: { level: 'high', reasons: ['no approval model to score the command: counted as high risk'], source: 'default' },
    });
  });
});
