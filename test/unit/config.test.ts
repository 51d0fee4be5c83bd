import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, SETTINGS } from '../../src/kernel/config';
import { testDir } from '../helpers/temp-dirs';

const dataDir = () => testDir('config');

describe('configuration', () => {
  it('has embedded defaults: no database URL, no Redis, a generated secret kept on disk', () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.redisUrl, undefined);
    assert.equal(config.port, 3000);
    assert.equal(config.baseUrl, 'http://localhost:3000');
    assert.equal(config.cdnUrl, config.baseUrl);
    assert.equal(config.secretKey.length, 32);
    assert.equal(readFileSync(path.join(dir, 'secret.key'), 'utf8'), config.secretKey.toString('hex'));
    assert.deepEqual(loadConfig({ DATA_DIR: dir }).secretKey, config.secretKey);
    assert.equal(config.sandboxProviderEnabled, true);
  });

  it('takes REDIS_CLUSTER=true only with REDIS_URL (a seed node) and a hash-tag QUEUE_PREFIX', () => {
    const cluster = loadConfig({ DATA_DIR: dataDir(), REDIS_URL: 'redis://10.0.0.7:7000', REDIS_CLUSTER: 'true' });
    assert.equal(cluster.redisCluster, true);
    assert.equal(cluster.queuePrefix, '{hiring-integrations}');
    assert.equal(loadConfig({ DATA_DIR: dataDir(), REDIS_URL: 'redis://10.0.0.7:7000' }).redisCluster, false);
    assert.throws(
      () => loadConfig({ DATA_DIR: dataDir(), REDIS_CLUSTER: 'true' }),
      (e: ConfigError) => e.env === 'REDIS_CLUSTER',
    );
    for (const prefix of ['hiring', '{a}{b}', 'x{hiring}']) {
      assert.throws(
        () => loadConfig({ DATA_DIR: dataDir(), REDIS_URL: 'redis://10.0.0.7:7000', REDIS_CLUSTER: 'true', QUEUE_PREFIX: prefix }),
        (e: ConfigError) => e.env === 'QUEUE_PREFIX',
        prefix,
      );
    }
  });

  it('keeps events at least as long as their webhook deliveries are retried', () => {
    assert.throws(
      () => loadConfig({ DATA_DIR: dataDir(), EVENT_RETENTION_DAYS: '2' }),
      (e: ConfigError) => e.env === 'EVENT_RETENTION_DAYS' && /3 days/.test(e.message),
    );
    assert.equal(loadConfig({ DATA_DIR: dataDir(), EVENT_RETENTION_DAYS: '2', WEBHOOK_RETRY_WINDOW_SECONDS: '172800' }).eventRetentionDays, 2);
  });

  it('names the bad setting', () => {
    assert.throws(
      () => loadConfig({ DATA_DIR: dataDir(), PORT: 'eighty' }),
      (e: ConfigError) => e.env === 'PORT',
    );
    assert.throws(
      () => loadConfig({ DATA_DIR: dataDir(), BASE_URL: 'not a url' }),
      (e: ConfigError) => e.env === 'BASE_URL',
    );
    assert.throws(
      () => loadConfig({ DATA_DIR: dataDir(), LOG_LEVEL: 'loud' }),
      (e: ConfigError) => e.env === 'LOG_LEVEL',
    );
    assert.throws(
      () => loadConfig({ DATA_DIR: dataDir(), SECRET_KEY: 'abcd' }),
      (e: ConfigError) => e.env === 'SECRET_KEY',
    );
    assert.throws(
      () => loadConfig({ DATA_DIR: dataDir(), OPERATOR_API_KEY: 'short' }),
      (e: ConfigError) => e.env === 'OPERATOR_API_KEY',
    );
    assert.throws(
      () => loadConfig({ DATA_DIR: dataDir(), OPERATOR_API_KEY: 'hik_' + 'x'.repeat(40) }),
      (e: ConfigError) => e.env === 'OPERATOR_API_KEY' && /hik_/.test(e.message),
    );
    assert.throws(
      () => loadConfig({ DATA_DIR: dataDir(), PROFILE_PROVIDER_AUTHORIZE_URL: 'https://p.example/authorize' }),
      (e: ConfigError) => e.env === 'PROFILE_PROVIDER_TOKEN_URL',
    );
  });

  it('refuses unsafe defaults in production', () => {
    const env = { NODE_ENV: 'production', DATA_DIR: dataDir() };
    assert.throws(
      () => loadConfig(env),
      (e: ConfigError) => e.env === 'DATABASE_URL',
    );
    assert.throws(
      () => loadConfig({ ...env, DATABASE_URL: 'postgres://x/y' }),
      (e: ConfigError) => e.env === 'SECRET_KEY',
    );
    const full = { ...env, DATABASE_URL: 'postgres://x/y', SECRET_KEY: 'b'.repeat(64), BASE_URL: 'https://jobs.example' };
    assert.throws(
      () => loadConfig(full),
      (e: ConfigError) => e.env === 'PROFILE_PROVIDER_AUTHORIZE_URL',
    );
    const config = loadConfig({ ...full, SANDBOX_PROVIDER_ENABLED: 'true' });
    assert.equal(config.env, 'production');
    assert.equal(config.sandboxProviderEnabled, true);
  });

  it('declares every setting once, secrets marked', () => {
    const names = SETTINGS.map((s) => s.env);
    assert.equal(new Set(names).size, names.length);
    for (const secret of ['DATABASE_URL', 'REDIS_URL', 'SECRET_KEY', 'OPERATOR_API_KEY', 'PROFILE_PROVIDER_CLIENT_SECRET']) {
      assert.equal(SETTINGS.find((s) => s.env === secret)?.secret, true, secret);
    }
  });
});
