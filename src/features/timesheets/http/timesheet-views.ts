/** Domain objects as API resources. */
import type { z } from 'zod';
import type { Placement } from '../domain/placement';
import type { Timesheet } from '../domain/timesheet';
import type { placementSchema, timesheetSchema } from './timesheet-schemas';

export const placementView = (p: Placement): z.output<typeof placementSchema> => ({
  id: p.id,
  object: 'placement',
  worker_id: p.workerId,
  worker_name: p.workerName,
  worker_email: p.workerEmail,
  client_company_id: p.clientCompanyId,
  client_name: p.clientName,
  client_contact: { name: p.clientContactName, email: p.clientContactEmail },
  bill_rate: p.billRateCents,
  pay_rate: p.payRateCents,
  currency: p.currency,
  overtime_rule: p.overtimeRule,
  timezone: p.timezone,
  created_at: p.createdAt.toISOString(),
});

export const timesheetView = (t: Timesheet): z.output<typeof timesheetSchema> => ({
  id: t.id,
  object: 'timesheet',
  placement_id: t.placementId,
  period_start: t.periodStart,
  period_end: t.periodEnd,
  status: t.status,
  entries: t.entries.map((e) => ({ start: e.start, end: e.end, break_minutes: e.breakMinutes })),
  regular_minutes: t.split.regular,
  overtime_minutes: t.split.overtime,
  double_time_minutes: t.split.doubleTime,
  pay_amount: t.payCents,
  bill_amount: t.billCents,
  currency: t.currency,
  review_run_id: t.reviewRunId,
  decision_note: t.decisionNote,
  invoice_id: t.invoiceId,
  submitted_at: t.submittedAt?.toISOString() ?? null,
  decided_at: t.decidedAt?.toISOString() ?? null,
  created_at: t.createdAt.toISOString(),
});
