// What the gateway remembers of each finding Iris posted on a pull request, so a later review
// neither repeats it (by its fingerprint) nor leaves it standing once its code is gone, and a reply
// in its thread can be tied back to it. Also each review's plan (what a delivery posts), kept with
// the run's output so a retried delivery posts exactly what the run decided.
import type { FindingState } from '../domain/finding-states.js';

export type PrFinding = {
  readonly route: string;
  readonly prKey: string;
  /** sha256 hex (review/fingerprint.ts). */
  readonly fingerprint: string;
  readonly path: string;
  readonly line: number;
  /** The normalised text of its line when posted: how an outdated finding is recognised. */
  readonly lineText: string;
  readonly title: string;
  readonly severity: string;
  readonly state: FindingState;
  /** GitHub's review thread node id, GitLab's discussion id; null until known. */
  readonly threadId: string | null;
  /** The host's id of the finding's comment (GitHub review comment, GitLab note). */
  readonly commentId: string | null;
  /** The webhook event (`iris webhook deliveries` id) whose review posted it. */
  readonly eventId: number;
  readonly createdAt: number;
  readonly updatedAt: number;
};

export type PrFindingInput = Omit<PrFinding, 'createdAt' | 'updatedAt'>;

export type PrReviewPlanRecord = { readonly eventId: number; readonly route: string; readonly prKey: string; readonly plan: string };

export interface PrFindings {
  /** The PR's findings, oldest first. */
  list(route: string, prKey: string): Promise<PrFinding[]>;
  /**
   * Records a posted finding, or replaces the row of its fingerprint (an outdated finding posted
   * again). A dismissed fingerprint stays dismissed: its row is left as it is.
   */
  record(finding: PrFindingInput): Promise<PrFinding>;
  /** Changes a finding's state; a dismissed one never changes again. Undefined when unknown. */
  setState(route: string, prKey: string, fingerprint: string, state: FindingState): Promise<PrFinding | undefined>;
  /** The finding whose comment or thread (discussion) has this host id. */
  byHostId(route: string, prKey: string, id: string): Promise<PrFinding | undefined>;
  /** Keeps a review's plan (JSON) under its event; a second save of the same event replaces it. */
  savePlan(record: PrReviewPlanRecord): Promise<void>;
  plan(eventId: number): Promise<PrReviewPlanRecord | undefined>;
  /**
   * Forgets what no longer has a use, last changed before `before`: the findings of a PR Iris
   * keeps no thread for any more (prThreads.prune forgot it: a later review starts afresh), and
   * the plans of events gone from the inbox. The count of rows removed.
   */
  prune(before: number): Promise<number>;
}
