/** The process and its HTTP server: mode, addresses, logs, request limits, shutdown, the demo. */
import { choice, flag, integer, text, url } from '../setting-kinds';
import { trustProxy } from '../value-parsers';

const HTTP = ['http', 'https'] as const;

export const SERVER = {
  title: 'Server',
  intro: 'The mode, where the service listens and is reached, its logs and the limits of one request.',
  settings: {
    NODE_ENV: choice(['development', 'test', 'production'], {
      default: 'development',
      description: 'production refuses unsafe defaults (embedded database, generated secret, sandbox provider).',
    }),
    PORT: integer({ default: '3000', minimum: 0, maximum: 65535, standaloneOnly: true, description: 'HTTP port of the standalone host.' }),
    HOST: text({ default: '0.0.0.0', standaloneOnly: true, description: 'Interface the standalone host listens on.' }),
    TRUST_PROXY: text({
      default: 'loopback',
      standaloneOnly: true,
      parse: trustProxy,
      description: 'Which proxies may set X-Forwarded-For (Express trust proxy: loopback, a subnet list, or a hop count). Client IPs drive per-IP rate limits.',
    }),
    BASE_URL: url({ schemes: HTTP, description: 'Public base URL of the service. Default: http://localhost:$PORT.' }),
    CDN_URL: url({ schemes: HTTP, description: 'Where the widget script is served from. Default: BASE_URL.' }),
    JOB_FEEDS_LISTING_URL: text({
      parse: (value, ctx) => {
        let parsed: URL | undefined;
        try {
          parsed = new URL(value.replaceAll('{organization_id}', 'o').replaceAll('{listing_id}', 'l'));
        } catch {
          parsed = undefined;
        }
        if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || !value.includes('{listing_id}'))
          ctx.addIssue({ code: 'custom', message: 'must be an http(s) URL template containing {listing_id}' });
        return value;
      },
      description:
        "The public page of a listing on the organization's careers site, where its JobPosting JSON-LD is embedded and candidates apply: an http(s) URL template with {listing_id} (and optionally {organization_id}). Without it the job feeds answer 404 job_feed_unavailable (docs/job-feeds.md).",
    }),
    LOG_LEVEL: choice(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info', description: 'Minimum level of the JSON logs.' }),
    BODY_LIMIT_BYTES: integer({
      default: '65536',
      minimum: 1024,
      maximum: 100 * 1024 * 1024,
      description: 'Largest accepted request body; larger answers 413.',
    }),
    SHUTDOWN_TIMEOUT_SECONDS: integer({
      default: '25',
      minimum: 1,
      maximum: 3600,
      standaloneOnly: true,
      description: 'On SIGTERM/SIGINT, how long in-flight requests and jobs may take to finish before the process exits 1.',
    }),
    DEMO_ENABLED: flag({
      description:
        '`serve` seeds the demo organization and serves /demo and /demo/pipeline. Default: on in embedded mode, off on PostgreSQL (or `serve --demo`); never in production.',
    }),
  },
} as const;
