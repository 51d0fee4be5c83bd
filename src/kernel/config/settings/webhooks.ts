/** Webhook delivery (timeouts, the retry schedule, destination policy, the sweep), event retention and audit retention. */
import { integer, text } from '../setting-kinds';
import { hostList } from '../value-parsers';

const POSITIVE = { minimum: 1 } as const;

export const WEBHOOKS = {
  title: 'Webhooks and events',
  intro: 'How webhook deliveries are attempted and retried, which destinations they may reach, and how long events and audit events are kept.',
  settings: {
    WEBHOOK_TIMEOUT_MS: integer({
      default: '10000',
      ...POSITIVE,
      description: 'Deadline of one webhook delivery attempt (connect, send, answer); a timeout is retried.',
    }),
    WEBHOOK_RETRY_BASE_MS: integer({
      default: '30000',
      ...POSITIVE,
      description: 'First retry delay of a failed webhook delivery; it doubles per attempt (with jitter) up to WEBHOOK_RETRY_MAX_DELAY_MS.',
    }),
    WEBHOOK_RETRY_MAX_DELAY_MS: integer({
      default: '43200000',
      ...POSITIVE,
      description: 'Longest delay between two webhook delivery attempts (default 12 hours).',
    }),
    WEBHOOK_RETRY_WINDOW_SECONDS: integer({
      default: '259200',
      ...POSITIVE,
      description: 'How long a webhook delivery is retried (default 3 days); an endpoint failing for all of it is disabled.',
    }),
    WEBHOOK_SECRET_OVERLAP_SECONDS: integer({
      default: '86400',
      description: "After a webhook secret rotation, how long deliveries also carry the old secret's signature (default; the rotate call may set its own).",
    }),
    WEBHOOK_ALLOWED_INTERNAL_HOSTS: text({
      parse: hostList,
      description:
        'Comma-separated host names (or IP addresses) webhook endpoints may use although they resolve to loopback, private or link-local addresses (an ATS on a private network).',
    }),
    WEBHOOK_HTTP_ALLOWED_HOSTS: text({
      parse: hostList,
      description: 'Comma-separated host names whose webhook URLs may use plain http in production (outside production http is always allowed).',
    }),
    WEBHOOK_SWEEP_INTERVAL_MS: integer({
      default: '60000',
      ...POSITIVE,
      description: 'How often each process re-enqueues webhook deliveries that are due but have no job (a Redis restart lost it).',
    }),
    WEBHOOK_SWEEP_GRACE_MS: integer({
      default: '300000',
      description: 'How long past its due time a pending webhook delivery may wait for its job before the sweep enqueues it again.',
    }),
    EVENT_RETENTION_DAYS: integer({ default: '30', ...POSITIVE, description: 'How long events (GET /v1/events) and their webhook deliveries are kept.' }),
    AUDIT_RETENTION_DAYS: integer({
      default: '400',
      minimum: 1,
      maximum: 36_500,
      description:
        'How long audit events (GET /v1/audit_events) are kept: 400 days covers a 13-month look-back (a yearly audit and its month of slack). The daily retention pass removes older events and anchors each chain so that audit verify still passes.',
    }),
    ACTION_RUN_RETENTION_DAYS: integer({
      default: '90',
      minimum: 1,
      maximum: 36_500,
      description:
        'How long a succeeded action run (GET /v1/integrations/runs) is kept after it completed. The daily retention pass deletes older ones in batches; a run still running or retrying, or referenced by a record still open (a pending verification, an unsigned envelope, a payout in transit…), is kept.',
    }),
    ACTION_RUN_FAILED_RETENTION_DAYS: integer({
      default: '180',
      minimum: 1,
      maximum: 36_500,
      description: 'How long a failed action run is kept after it failed (longer than a succeeded one: it is what an organization investigates or retries).',
    }),
  },
} as const;
