/** Settings are range- and scheme-checked where they are read, and errors name the variable. */
import { strict as assert } from 'node:assert';
import { loadConfig, ConfigError } from '../../src/kernel/config';
import { errorFields } from '../../src/platform/logging/error-fields';
import { testEnv } from '../helpers/config';

const refused = (overrides: Record<string, string>, pattern: RegExp) =>
  assert.throws(
    () => loadConfig(testEnv(overrides)),
    (error: unknown) => error instanceof ConfigError && pattern.test(error.message),
  );

describe('configuration checks', () => {
  it('refuses integers out of range, naming the variable', () => {
    refused({ PORT: '70000' }, /^PORT: must be between 0 and 65535, got 70000$/);
    refused({ WORKER_HTTP_PORT: '65536' }, /^WORKER_HTTP_PORT: /);
    refused({ DATABASE_POOL_MAX: '0' }, /^DATABASE_POOL_MAX: must be between 1 and 1000/);
    refused({ BODY_LIMIT_BYTES: '10' }, /^BODY_LIMIT_BYTES: /);
    refused({ SHUTDOWN_TIMEOUT_SECONDS: '0' }, /^SHUTDOWN_TIMEOUT_SECONDS: /);
    assert.equal(loadConfig(testEnv({ PORT: '0' })).port, 0, 'port 0 (any free port) is fine');
  });

  it('refuses URLs of the wrong scheme, naming the variable', () => {
    refused({ BASE_URL: 'ftp://files.example' }, /^BASE_URL: must be a http or https URL, got ftp:$/);
    refused({ CDN_URL: 'javascript:alert(1)' }, /^CDN_URL: /);
    refused({ DATABASE_URL: 'mysql://db/x' }, /^DATABASE_URL: must be a postgres or postgresql URL/);
    refused({ REDIS_URL: 'http://cache:6379' }, /^REDIS_URL: must be a redis or rediss URL/);
    refused({ PROFILE_PROVIDER_AUTHORIZE_URL: 'file:///etc/passwd' }, /^PROFILE_PROVIDER_AUTHORIZE_URL: /);
    assert.equal(loadConfig(testEnv({ BASE_URL: 'https://hiring.example.com/' })).baseUrl, 'https://hiring.example.com');
  });

  it('logs errors with their stack and cause chain', () => {
    const root = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const fields = errorFields(new Error('could not load the listing', { cause: root }));
    assert.equal(fields.message, 'could not load the listing');
    assert.match(fields.stack ?? '', /could not load the listing\n\s+at /);
    assert.equal(typeof fields.cause, 'object');
    assert.equal((fields.cause as { code?: string }).code, 'ECONNREFUSED');
    assert.match((fields.cause as { stack?: string }).stack ?? '', /ECONNREFUSED/);
  });
});
