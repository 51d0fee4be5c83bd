/**
 * Connector ports: how hook handlers reach the outside (email, SMS, video meetings,
 * e-signature, HRIS). Each call carries an idempotency key: the same key never sends
 * twice and answers what the first call answered. The sandbox connectors
 * (src/connectors/) send nothing and record what they would send in
 * `hi_connector_deliveries`; real integrations register under the same tokens.
 * Upstream trouble is thrown as an `upstream` DomainError (retried by jobs); a refusal that
 * retrying cannot change (bad credentials, rejected recipient) as a `conflict` one.
 */
import { conflict } from '../../../kernel/errors';

export interface DeliveryBase {
  organizationId: string;
  /** The action key the delivery serves (the license it is done under). */
  actionKey: string;
  idempotencyKey: string;
}

export interface EmailMessage extends DeliveryBase {
  to: { name: string; email: string };
  subject: string;
  text: string;
  html?: string;
  /** BCP 47 language of the message (Content-Language). */
  language?: string;
  headers?: Record<string, string>;
  attachments?: readonly EmailAttachment[];
  /** An iTIP message (RFC 6047): sent as a text/calendar part with this METHOD, so mail clients offer "Add to calendar". */
  calendar?: { method: 'REQUEST' | 'CANCEL'; content: string };
}

export interface EmailAttachment {
  filename: string;
  contentType: string;
  content: Uint8Array;
}

export interface SmsMessage extends DeliveryBase {
  /** E.164 phone number. */
  to: string;
  text: string;
}

export interface Delivery {
  deliveryId: string;
  /** The counterpart's acknowledgment (SMTP queue id, message SID); absent from the sandbox. */
  reference?: string;
  /** false when a test-mode sandbox answered: nothing left the machine. */
  livemode?: boolean;
  /** What the counterpart answered besides the reference (SMS: encoding, segments), kept on the run; never candidate data. */
  details?: Record<string, unknown>;
}

export interface NotificationConnector {
  sendEmail(message: EmailMessage): Promise<Delivery>;
}

export interface SmsConnector {
  sendSms(message: SmsMessage): Promise<Delivery>;
}

export interface MeetingRequest extends DeliveryBase {
  title: string;
  startsAt: Date;
  durationMinutes: number;
  /** `host` (interviewers: moderators where the provider has them) or `guest` (default). */
  attendees: { name: string; email?: string; role?: 'host' | 'guest' }[];
}

/** One participant's own link (Jitsi: it carries the participant's token). */
export interface MeetingParticipantLink {
  name: string;
  email?: string;
  role: 'host' | 'guest';
  joinUrl: string;
}

export interface Meeting extends Delivery {
  meetingId: string;
  /** The room's address, without anyone's token. */
  joinUrl: string;
  /** Per-participant links, from the call that created the meeting (not kept in the run: they name people). */
  participants?: MeetingParticipantLink[];
}

export interface VideoMeetingConnector {
  createMeeting(request: MeetingRequest): Promise<Meeting>;
}

export interface EmployeeRecord extends DeliveryBase {
  candidateId: string;
  name: string;
  email: string;
  jobTitle: string | null;
  startDate: string | null;
  department: string | null;
  /** Who the person is to the organization (SCIM `userType`): an employee, or a cleared school volunteer. */
  workerType?: 'employee' | 'volunteer';
}

/** Ends a person's access in the HRIS (SCIM: `active:false`); the record stays for history. */
export interface EmployeeDeactivation extends DeliveryBase {
  candidateId: string;
}

export interface SyncedEmployee extends Delivery {
  employeeId: string;
}

export interface HrisConnector {
  /** Creates the person, or updates the one already there for `candidateId` (never a second record). */
  syncEmployee(record: EmployeeRecord): Promise<SyncedEmployee>;
  /** Optional for host-supplied connectors: without it a termination fails with `connector_unsupported`. */
  deactivateEmployee?(request: EmployeeDeactivation): Promise<SyncedEmployee>;
}

/** A file for the organization's payroll provider (CSV in a documented format). */
export interface PayrollFile extends DeliveryBase {
  /** A plain file name (no directories): `new-hire-<candidate>.csv`. */
  fileName: string;
  content: string;
}

/** A file written as it is produced; `content` may be called again for a retry (it starts over). */
export interface StreamedFile extends DeliveryBase {
  fileName: string;
  content: () => AsyncIterable<string>;
}

export interface DeliveredFile extends Delivery {
  /** Where the counterpart holds it. */
  path: string;
  /** Hex SHA-256 of the bytes delivered (UTF-8). */
  sha256: string;
}

export interface PayrollFileConnector {
  /** Resolves once the counterpart holds the whole file under its final name. */
  deliverFile(file: PayrollFile): Promise<DeliveredFile>;
  /**
   * The same for a file too large to hold in memory (candidate exports): its bytes are read
   * from `content()` while they are sent. Optional for host-supplied connectors: without it
   * the step fails with `connector_unsupported`.
   */
  deliverFileStream?(file: StreamedFile): Promise<DeliveredFile>;
}

export const NOTIFICATION_CONNECTOR = Symbol('NotificationConnector');
export const SMS_CONNECTOR = Symbol('SmsConnector');
export const VIDEO_MEETING_CONNECTOR = Symbol('VideoMeetingConnector');
/** A worker (gig or temp) who is to be paid through the organization's payouts provider. */
export interface PayoutWorker extends DeliveryBase {
  workerId: string;
  email: string;
  /** ISO 3166-1 alpha-2 country of the worker's bank account. */
  country: string;
  /** The account created earlier: only a new onboarding link is made for it, never a second account. */
  accountId?: string;
}

export interface PayoutOnboarding extends Delivery {
  /** The provider's account for the worker (Stripe: `acct_…`). */
  accountId: string;
  /** Hosted onboarding (KYC) page; short-lived, single use. */
  onboardingUrl: string;
  expiresAt: Date;
}

/** Money for one worker: integer minor units (cents) of an ISO 4217 currency, to the worker's connected account. */
export interface PayoutMoney extends DeliveryBase {
  accountId: string;
  amount: number;
  /** ISO 4217, lower or upper case. */
  currency: string;
  /** Our payout id: the provider keeps it (metadata) so its events lead back to the payout. */
  payoutId: string;
}

export interface PayoutMovement extends Delivery {
  /** The provider's object (Stripe: `tr_…` for a transfer, `po_…` for a payout). */
  providerId: string;
  /** The provider's status of the object (Stripe payouts: pending, in_transit, paid, failed, canceled). */
  status: string;
}

/** A webhook the provider sent to the connection's endpoint, verified and read. */
export type PayoutProviderEvent =
  | {
      type: 'account';
      eventId: string;
      accountId: string;
      workerId: string | undefined;
      payoutsEnabled: boolean;
      currentlyDue: string[];
      disabledReason: string | undefined;
      livemode: boolean;
      /** When the provider created the event: an older event never overwrites a newer state. */
      occurredAt: Date;
    }
  | {
      type: 'payout';
      eventId: string;
      accountId: string;
      providerPayoutId: string;
      payoutId: string | undefined;
      status: 'paid' | 'failed';
      failureCode: string | undefined;
      failureMessage: string | undefined;
      livemode: boolean;
      occurredAt: Date;
    };

export interface PayoutConnector {
  /** Creates (once per workerId: retries answer the same account) the worker's connected account and a hosted onboarding link. */
  startOnboarding(worker: PayoutWorker): Promise<PayoutOnboarding>;
  /** Moves the amount from the platform's balance to the worker's account (once per idempotency key). */
  transfer?(money: PayoutMoney): Promise<PayoutMovement>;
  /** Pays the amount out of the worker's account to their debit card or bank at once (once per idempotency key). */
  instantPayout?(money: PayoutMoney): Promise<PayoutMovement>;
  /**
   * Verifies a webhook delivery with the connection's signing secret and reads it; null: an
   * event of no interest. A bad signature throws `webhook_signature_invalid`.
   */
  readWebhook?(rawBody: Buffer, signature: string | undefined): PayoutProviderEvent | null;
}

/** A hire as a point-of-sale team member (Square: `reference_id` = our candidate id), with the job and its wage. */
export interface PosTeamMember extends DeliveryBase {
  referenceId: string;
  givenName: string;
  familyName: string;
  email: string | null;
  /** E.164. */
  phone: string | null;
  jobTitle: string | null;
  /** Integer minor units per hour or per year. */
  wage: { amount: number; currency: string; per: 'hour' | 'year' } | null;
}

export interface PosDeactivation extends DeliveryBase {
  referenceId: string;
}

export interface SyncedTeamMember extends Delivery {
  teamMemberId: string;
  /** A file-based POS (pos-csv): the file the change was written to; the run's reference is its checksum. */
  file?: { path: string; sha256: string };
}

export interface PosConnector {
  /** Creates the team member, or updates (and reactivates) the one holding `referenceId`; sets job and wage. */
  syncTeamMember(member: PosTeamMember): Promise<SyncedTeamMember>;
  /** Sets the team member holding `referenceId` inactive (`employee_not_found` when none). */
  deactivateTeamMember(request: PosDeactivation): Promise<SyncedTeamMember>;
}

/**
 * Whether the organization chose to download its files of a kind through the API (a
 * payroll-download or pos-download connection) instead of having them delivered: the handlers
 * then keep the roster and journal and deliver nothing (no run claims a delivery).
 */
export interface DownloadDelivery {
  deliversByDownload(organizationId: string, kind: 'payroll_files' | 'pos'): Promise<boolean>;
}
export const DOWNLOAD_DELIVERY = Symbol('DownloadDelivery');
/** `destination: sftp` asked of an organization that chose to download (409, before any run). */
export const downloadChosen = () =>
  conflict('delivery_download_only', "The organization's payroll_files connection is payroll-download: use destination download", { param: 'destination' });

export const HRIS_CONNECTOR = Symbol('HrisConnector');
export const PAYROLL_FILE_CONNECTOR = Symbol('PayrollFileConnector');
export const PAYOUT_CONNECTOR = Symbol('PayoutConnector');

/** A person to screen through the organization's background-check vendor (Checkr's shape). */
export interface BackgroundCheckOrder extends DeliveryBase {
  email: string;
  firstName?: string;
  lastName?: string;
  /** The vendor's package slug (`driver_pro`, `tasker_standard`, …): what is screened. */
  packageSlug: string;
  /** Where the person will work (US: state required); decides the vendor's disclosures. */
  workLocation: { country: string; state?: string; city?: string };
}

/** The candidate and invitation the vendor created: the invitation is its hosted consent and apply flow. */
export interface OrderedBackgroundCheck extends Delivery {
  vendorCandidateId: string;
  invitationId: string;
  invitationUrl: string;
}

/** Post-hire monitoring of a person already known to the vendor. */
export interface MonitoringEnrollment extends DeliveryBase {
  vendorCandidateId: string;
  type: 'criminal' | 'mvr';
}

export interface MonitoringSubscription extends Delivery {
  subscriptionId: string;
}

export type VendorReportStatus = 'pending' | 'complete' | 'suspended' | 'dispute' | 'canceled';

export interface VendorReport {
  id: string;
  status: VendorReportStatus;
  result: 'clear' | 'consider' | null;
  packageSlug: string | null;
  vendorCandidateId: string | null;
  motorVehicleReportId: string | null;
}

export interface MotorVehicleViolation {
  description: string;
  category: string | null;
  date: string | null;
}

export interface MotorVehicleRecord {
  id: string;
  licenseStatus: string | null;
  licenseState: string | null;
  expirationDate: string | null;
  violations: MotorVehicleViolation[];
}

/** A vendor event whose signature checked out, reduced to what the checks use. */
export interface VendorEvent {
  id: string;
  type: string;
  /** The object the event is about, as the vendor sent it (`include_object`). */
  object: Record<string, unknown>;
}

export interface BackgroundCheckConnector {
  /** Creates the vendor's candidate and an invitation to its hosted consent/apply flow. */
  orderCheck(order: BackgroundCheckOrder): Promise<OrderedBackgroundCheck>;
  /** Enrolls a person in continuous monitoring (new records produce new reports). */
  enrollMonitoring(enrollment: MonitoringEnrollment): Promise<MonitoringSubscription>;
  fetchReport(reportId: string): Promise<VendorReport>;
  fetchMotorVehicleRecord(id: string): Promise<MotorVehicleRecord>;
  /** Verifies a webhook's signature over its raw body; answers the event, or throws `webhook_signature_invalid`. */
  verifyWebhook(rawBody: Buffer, signature: string | undefined): VendorEvent;
}
export const POS_CONNECTOR = Symbol('PosConnector');
