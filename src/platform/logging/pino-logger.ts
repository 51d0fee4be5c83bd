/** Structured JSON logs (pino) with credentials redacted wherever they could appear. */
import pino from 'pino';
import type { Logger } from '../../kernel/logger';

export const REDACTED_PATHS = [
  'authorization',
  '*.authorization',
  'headers.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
  'api_key',
  'apiKey',
  '*.api_key',
  '*.apiKey',
  'token',
  '*.token',
  'access_token',
  '*.access_token',
  'refresh_token',
  '*.refresh_token',
  'client_secret',
  '*.client_secret',
  'code_verifier',
  '*.code_verifier',
  'secret',
  '*.secret',
  'password',
  '*.password',
];

/** Bearer tokens and our key formats, scrubbed from free text too. */
const SECRET_PATTERN = /(Bearer\s+)\S+|\bhik_[0-9A-Za-z]{12}_[0-9A-Za-z]{8,}|\bhic_[0-9A-Za-z._-]{8,}/g;

export function scrubSecrets(text: string): string {
  return text.replace(SECRET_PATTERN, (match, bearer) => (bearer ? `${bearer}[REDACTED]` : `${match.slice(0, 16)}…[REDACTED]`));
}

/**
 * Stdout in batches: lines are written when 4 KiB have gathered or every 100 ms, and
 * flushed synchronously when the process exits. One write per request (the access log)
 * was the API's largest single cost under load in the apply benchmark's CPU profile; the
 * price is that a process killed outright (SIGKILL) loses its last 100 ms of lines.
 */
function batchedStdout(): pino.DestinationStream {
  return pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 100 });
}

/**
 * @param options.pretty human-readable colored lines (pino-pretty) instead of JSON: for a
 *   developer's terminal. Redaction applies all the same.
 */
export function createLogger(options: { level: string; name?: string; destination?: pino.DestinationStream; pretty?: boolean }): Logger {
  const destination =
    options.destination ??
    (options.pretty
      ? (require('pino-pretty') as typeof import('pino-pretty'))({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,name' })
      : batchedStdout());
  const instance = pino(
    {
      name: options.name ?? 'hiring-integrations',
      level: options.level,
      redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      hooks: {
        logMethod(args, method) {
          const scrubbed = args.map((arg) => (typeof arg === 'string' ? scrubSecrets(arg) : arg)) as typeof args;
          method.apply(this, scrubbed);
        },
      },
    },
    destination,
  );
  return instance as unknown as Logger;
}
