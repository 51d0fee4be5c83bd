/** The host's hiring pipeline, which receives submitted applications. */
import type { ApplicationCredentialCheck } from './application-credential-check';

export interface PipelineCredential {
  title: string;
  issuer: string;
  verified: boolean;
  issued_at: string;
}

/** One position of the candidate's work history; `verified` only when the provider says. */
export interface PipelinePosition {
  title: string;
  company: string;
  /** YYYY-MM-DD */
  start_date: string;
  /** YYYY-MM-DD, null while current. */
  end_date: string | null;
  verified?: boolean;
}

export interface PipelineApplication {
  applicationId: string;
  organizationId: string;
  listingId: string;
  profileUserId: string;
  candidateName?: string;
  status: string;
  coverLetter?: string;
  answers: Record<string, number | boolean | string>;
  importedSkills: string[];
  importedCredentials: PipelineCredential[];
  experienceSummary: { total_years: number; current_title: string; current_company: string };
  /** The candidate's positions, newest first. */
  workHistory: PipelinePosition[];
  profileUrl: string;
  /** The distribution channel the candidate came through, when known. */
  source?: string;
  submittedAt: Date;
  /**
   * The listing's credential requirements checked against the candidate's credentials (each
   * met, missing, expired, unverified or pending, with evidence); absent when the listing has
   * none or the organization holds no verification action.
   */
  credentialCheck?: ApplicationCredentialCheck;
  /** The earlier application to this listing with the same contact email (the same person applied twice), when there is one. */
  duplicateOf?: string;
  /** How to reach the candidate (a profile application's `contact`, or a job board's applicant with their resume, file in base64); absent when none was given. */
  applicant?: {
    email: string;
    phone: string | null;
    resume: { text: string | null; file: { fileName: string; contentType: string; base64: string } | null } | null;
  };
}

export interface Pipeline {
  /** Must be idempotent on applicationId: a redelivery is not a second application. */
  deliver(application: PipelineApplication): Promise<void>;
}

export const PIPELINE = Symbol('Pipeline');
