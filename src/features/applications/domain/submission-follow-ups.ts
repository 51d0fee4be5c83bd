/**
 * What other features start when an application arrives, off the apply request: the pipeline
 * delivery job calls it before handing the application on (a background check ordered from
 * the listing's policy). Implementations only enqueue, under a job id derived from the
 * application, so a replayed delivery starts nothing twice.
 */
import type { ProfileApplication } from './application';

export interface SubmissionFollowUps {
  submitted(application: ProfileApplication): Promise<void>;
}

export const SUBMISSION_FOLLOW_UPS = Symbol('SubmissionFollowUps');

/** Without the background-checks feature nothing follows a submission. */
export const noSubmissionFollowUps: SubmissionFollowUps = { submitted: async () => undefined };
