import { loadConfig, type Config } from '../../src/kernel/config';
import { uniqueQueuePrefix } from './redis';
import { testDir } from './temp-dirs';

export const TEST_OPERATOR_KEY = 'op_test_0123456789abcdef0123456789';
export const TEST_SECRET_KEY = 'a'.repeat(64);

/** Test configuration: real services when CI's env names them, quiet logs, a fresh data dir. */
export function testEnv(overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    NODE_ENV: 'test',
    DATA_DIR: testDir('test'),
    REDIS_URL: process.env.REDIS_URL,
    QUEUE_PREFIX: uniqueQueuePrefix(),
    SECRET_KEY: TEST_SECRET_KEY,
    OPERATOR_API_KEY: TEST_OPERATOR_KEY,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'info',
    // The counterparts the tests start (SMTP, CalDAV, SCIM, sshd, Prism…) listen on loopback.
    CONNECTOR_ALLOWED_INTERNAL_HOSTS: '127.0.0.1,localhost,::1',
    ...overrides,
  };
}

export function testConfig(overrides: Record<string, string | undefined> = {}): Config {
  return loadConfig(testEnv(overrides));
}
