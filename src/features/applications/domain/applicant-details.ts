/**
 * How to reach an application's candidate, and their resume: a job board's applicant
 * (job_boards.import_applications) or a profile application's `contact` (no resume: the
 * profile is the application). The pipeline receives it whole; application.submitted names the contact only (a
 * resume file has no place in an event log or a webhook).
 */
export interface ApplicantDetails {
  email: string;
  phone: string | null;
  resume: { text: string | null; file: { fileName: string; contentType: string; data: Buffer } | null } | null;
}

export interface ApplicantDetailsReader {
  /** Undefined for a profile application (its profile is the application). */
  find(applicationId: string): Promise<ApplicantDetails | undefined>;
}

export const APPLICANT_DETAILS = Symbol('ApplicantDetails');

/** Without the board applications feature no application has details. */
export const noApplicantDetails: ApplicantDetailsReader = { find: async () => undefined };
