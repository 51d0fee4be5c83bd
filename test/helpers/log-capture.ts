/**
 * Every log line of the test run goes to one file, and every credential the tests see is
 * remembered; a root hook (setup.ts) fails the run if any credential appears in the log.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import type { Logger } from '../../src/kernel/logger';
import { createLogger } from '../../src/platform/logging/pino-logger';
import { PACKAGE_ROOT } from '../../src/platform/manifest/manifest';

export const TEST_LOG_FILE = path.join(PACKAGE_ROOT, 'test-artifacts', 'test-run.log');

const secrets = new Set<string>();
let destination: pino.DestinationStream | undefined;

export function resetTestLog(): void {
  mkdirSync(path.dirname(TEST_LOG_FILE), { recursive: true });
  writeFileSync(TEST_LOG_FILE, '');
}

/** Register a credential (API key, candidate token, OAuth token) that must never be logged. */
export function rememberSecret(value: string | undefined | null): void {
  if (typeof value === 'string' && value.length >= 16) secrets.add(value);
}

/** Scans any JSON the tests received for credentials and remembers them. */
export function rememberSecretsIn(value: unknown): void {
  if (typeof value === 'string') {
    for (const match of value.matchAll(/\b(hik_[0-9A-Za-z]{12}_[0-9A-Za-z]{43}|hic_[0-9A-Za-z._-]{16,})/g)) rememberSecret(match[1]);
    return;
  }
  if (Array.isArray(value)) return value.forEach(rememberSecretsIn);
  if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (/token|api_key|secret/i.test(key) && typeof inner === 'string') rememberSecret(inner);
      rememberSecretsIn(inner);
    }
  }
}

/** Output of child processes (CLI, servers, workers) belongs to the run's log too. */
export function appendChildLog(text: string): void {
  if (text) appendFileSync(TEST_LOG_FILE, text.endsWith('\n') ? text : `${text}\n`);
}

export function testLogger(level = process.env.TEST_LOG_LEVEL ?? 'info'): Logger {
  destination ??= pino.destination({ dest: TEST_LOG_FILE, sync: true, append: true, mkdir: true });
  return createLogger({ level, destination });
}

/** Lines of the run's log that contain a remembered credential. */
export function leakedSecrets(): string[] {
  const log = readFileSync(TEST_LOG_FILE, 'utf8');
  const leaks: string[] = [];
  for (const secret of secrets) {
    // Match on the secret part: a key's public prefix may legitimately be logged.
    const needle = secret.startsWith('hik_') ? secret.slice(17) : secret;
    const line = log.split('\n').find((l) => l.includes(needle));
    if (line) leaks.push(`${secret.slice(0, 8)}… in: ${line.slice(0, 300)}`);
  }
  return leaks;
}

export const rememberedSecretCount = () => secrets.size;
