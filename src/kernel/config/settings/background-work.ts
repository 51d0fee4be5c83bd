/** Caches, reminders, billing and the reconciliation sweep: what runs on a timer or bounds staleness. */
import { choice, integer } from '../setting-kinds';

const POSITIVE = { minimum: 1 } as const;

export const BACKGROUND_WORK = {
  title: 'Caches, reminders, billing and reconciliation',
  intro: 'Bounds on cached answers, and the timers of reminders, billing renewals and the reconciliation sweep.',
  settings: {
    ENTITLEMENT_CACHE_TTL_SECONDS: integer({
      default: '60',
      minimum: 1,
      maximum: 86_400,
      description:
        'Longest a process keeps a cached answer: license answers for the gate and the apply path, and the per-process caches of API keys, organization settings and listings; changes invalidate them at once (Redis pub/sub or in-process), the TTL bounds staleness if a message is lost.',
    }),
    REMINDER_LEAD_MINUTES: integer({
      default: '60',
      minimum: 0,
      maximum: 7 * 24 * 60,
      description: 'How long before an interview its email and SMS reminders are sent (at once when that moment has passed).',
    }),
    BILLING_COLLECTION: choice(['host', 'sandbox'], {
      description:
        'Who collects invoices: host (the plugin finalizes, publishes invoice.finalized and waits for the host to report the payment) or sandbox (test cards charged at finalization, with retries). Default: sandbox in the standalone host (npm start) outside production, host when embedded or in production (the operator reports payments).',
    }),
    BILLING_GRACE_DAYS: integer({
      default: '14',
      description: 'How long a past_due organization keeps its licenses after a failed payment before it is suspended.',
    }),
    BILLING_RENEWAL_INTERVAL_SECONDS: integer({
      default: '60',
      ...POSITIVE,
      description: 'How often the renewal job looks for due periods, payment retries and ends of grace.',
    }),
    COMPLIANCE_SWEEP_INTERVAL_SECONDS: integer({
      default: '3600',
      ...POSITIVE,
      description:
        'How often the compliance sweep sends credential.expiring / credential.expired for credentials reaching a reminder threshold or their expiry.',
    }),
    JOB_IMPORT_SWEEP_INTERVAL_SECONDS: integer({
      default: '60',
      ...POSITIVE,
      description: 'How often the job import sweep queues the imports of feeds whose interval has come (job_import.import_jobs).',
    }),
    RECONCILE_INTERVAL_SECONDS: integer({
      default: '60',
      ...POSITIVE,
      description:
        'How often the reconciliation sweep looks for work whose effect is missing (undelivered applications, licenses still provisioning, reminders due but not sent).',
    }),
    RECONCILE_AFTER_SECONDS: integer({
      default: '600',
      ...POSITIVE,
      description:
        "The sweep's bound: work whose effect is still missing this long after it was written (or due) is enqueued again. Longer than the job retry schedules.",
    }),
  },
} as const;
