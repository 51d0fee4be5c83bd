/**
 * Records of other features that name an action run and are still open: while one is, its
 * runs are what the organization looks at to follow it (was the invitation delivered? the
 * transfer?), so retention keeps them. Once the record is settled, its runs age out like any
 * other; the record keeps the run id, and GET /v1/integrations/runs/{id} answers 404 after.
 * A table that gains a run column and an open state adds a line here.
 */
export interface LiveRunReference {
  table: string;
  columns: string[];
  /** SQL over the referencing row (alias `ref`): the record is still open. */
  open: string;
}

export const LIVE_RUN_REFERENCES: LiveRunReference[] = [
  { table: 'hi_status_updates', columns: ['run_id'], open: "ref.status = 'pending'" },
  { table: 'hi_background_checks', columns: ['run_id'], open: "ref.status = 'pending'" },
  { table: 'hi_verifications', columns: ['run_id'], open: "ref.status = 'pending'" },
  { table: 'hi_scheduling_requests', columns: ['email_run_id', 'sms_run_id'], open: "ref.status = 'open'" },
  { table: 'hi_esign_envelopes', columns: ['email_run_id', 'sms_run_id'], open: "ref.status = 'sent'" },
  { table: 'hi_shifts', columns: ['email_run_id', 'sms_run_id'], open: "ref.status = 'scheduled' and ref.response = 'pending'" },
  { table: 'hi_call_sheets', columns: ['email_run_id', 'sms_run_id'], open: "ref.status = 'sent'" },
  { table: 'hi_payouts', columns: ['transfer_run_id', 'payout_run_id'], open: "ref.status in ('pending', 'transferred', 'in_transit')" },
  { table: 'hi_payout_workers', columns: ['onboarding_run_id'], open: "ref.kyc_status in ('pending', 'onboarding', 'requirements_due')" },
  { table: 'hi_timesheets', columns: ['review_run_id'], open: "ref.status = 'submitted'" },
  { table: 'hi_job_imports', columns: ['run_id'], open: "ref.status in ('queued', 'running')" },
  { table: 'hi_client_invoices', columns: ['email_run_id'], open: "ref.status = 'open'" },
  { table: 'hi_sourcing_invitations', columns: ['run_id'], open: 'ref.used_at is null and ref.expires_at > now()' },
];
