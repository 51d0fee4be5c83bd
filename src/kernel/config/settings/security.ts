/** Keys and credentials, and the rate limits that protect them. */
import { integer, text } from '../setting-kinds';
import { operatorKey, secretKey } from '../value-parsers';

const PER_MINUTE = { minimum: 0, maximum: 1_000_000 } as const;

export const SECURITY = {
  title: 'Secrets and rate limits',
  intro: 'Secrets are never logged. Rate limits answer 429 with Retry-After; RATE_LIMIT_PER_MINUTE=0 turns them all off.',
  settings: {
    SECRET_KEY: text({
      secret: true,
      parse: secretKey,
      description:
        '32+ byte secret (hex or base64) that encrypts OAuth tokens and signs candidate sessions. Embedded mode generates one into DATA_DIR; required in production.',
    }),
    OPERATOR_API_KEY: text({
      secret: true,
      parse: operatorKey,
      description: 'Credential for operator-only calls (catalog management, hooks, job dashboard), at least 24 characters. Unset: operator calls are refused.',
    }),
    API_KEY_ROTATION_GRACE_SECONDS: integer({ default: '86400', minimum: 0, maximum: 365 * 86400, description: 'How long a rotated API key keeps working.' }),
    RATE_LIMIT_PER_MINUTE: integer({
      default: '600',
      ...PER_MINUTE,
      description: 'Requests per minute per organization (API keys, candidate sessions); 0 turns every rate limit off.',
    }),
    RATE_LIMIT_PUBLIC_PER_MINUTE: integer({
      default: '300',
      ...PER_MINUTE,
      description:
        "Requests per minute per client IP to public endpoints (the widget's listing read, CORS preflights, the sandbox provider); never health checks.",
    }),
    RATE_LIMIT_CONNECT_PER_MINUTE: integer({
      default: '60',
      ...PER_MINUTE,
      description: 'Connect popup pages (start and callback) per minute per client IP.',
    }),
    RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: integer({
      default: '30',
      ...PER_MINUTE,
      description:
        'Failed authentications per minute per client IP and per API key prefix; past it every credential check of that IP or key answers 429, even with a correct key.',
    }),
  },
} as const;
