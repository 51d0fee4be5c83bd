import { strict as assert } from 'node:assert';
import { ConfigError, loadConfig, SETTINGS } from '../../src/kernel/config';
import { defineConfig, STANDALONE_ONLY_SETTINGS } from '../../src/host/config-builder';
import { testDir } from '../helpers/temp-dirs';

const SECRET = 'c'.repeat(64);

describe('configuration for an embedding host (defineConfig)', () => {
  it('joins the public base URL and the mount path into every URL the plugin builds', () => {
    const config = defineConfig({ baseUrl: 'https://ats.example.com/', mountPath: '/careers/hi/', secretKey: SECRET });
    assert.equal(config.baseUrl, 'https://ats.example.com/careers/hi');
    assert.equal(config.mountPath, '/careers/hi');
    assert.equal(config.cdnUrl, 'https://ats.example.com/careers/hi');
    assert.equal(config.sandboxInternalUrl, 'https://ats.example.com/careers/hi');
    const internal = defineConfig({ baseUrl: 'https://ats.example.com', mountPath: '/hi', secretKey: SECRET, sandboxInternalUrl: 'http://api:8080' });
    assert.equal(internal.sandboxInternalUrl, 'http://api:8080/hi');
    assert.equal(defineConfig({ baseUrl: 'https://ats.example.com', secretKey: SECRET }).mountPath, '');
  });

  it('takes typed values (numbers, booleans, a Buffer secret) through the same validation as the environment', () => {
    const config = defineConfig({
      baseUrl: 'https://a.example',
      secretKey: Buffer.alloc(32, 1),
      workerConcurrency: 3,
      sandboxProviderEnabled: false,
      nodeEnv: 'test',
      redisUrl: 'redis://r:6379',
    });
    assert.equal(config.workerConcurrency, 3);
    assert.equal(config.sandboxProviderEnabled, false);
    assert.deepEqual(config.secretKey, Buffer.alloc(32, 1));
    assert.equal(config.redisUrl, 'redis://r:6379');
    assert.throws(
      () => defineConfig({ baseUrl: 'https://a.example', secretKey: SECRET, logLevel: 'loud' as 'info' }),
      (e: ConfigError) => e.env === 'LOG_LEVEL',
    );
  });

  it('requires the secret (nothing generated or written) and the base URL, naming them', () => {
    assert.throws(
      () => defineConfig({ baseUrl: 'https://a.example' } as never),
      (e: ConfigError) => e.env === 'SECRET_KEY' && /required/.test(e.message),
    );
    assert.throws(
      () => defineConfig({ baseUrl: 'https://a.example', secretKey: 'abcd' }),
      (e: ConfigError) => e.env === 'SECRET_KEY' && /32 bytes/.test(e.message),
    );
    assert.throws(
      () => defineConfig({ secretKey: SECRET } as never),
      (e: ConfigError) => e.env === 'BASE_URL',
    );
  });

  it('refuses a malformed mount path, unknown options and the standalone-only settings', () => {
    for (const mountPath of ['careers', '/a b', '/a//b', '/a?x', '/..', '/a/./b']) {
      assert.throws(
        () => defineConfig({ baseUrl: 'https://a.example', secretKey: SECRET, mountPath }),
        (e: ConfigError) => e.env === 'mountPath',
        mountPath,
      );
    }
    assert.throws(
      () => defineConfig({ baseUrl: 'https://a.example', secretKey: SECRET, port: 80 } as never),
      (e: ConfigError) => e.env === 'port',
    );
    assert.throws(
      () => defineConfig({ baseUrl: 'https://a.example', secretKey: SECRET, secretKeyz: 'x' } as never),
      (e: ConfigError) => e.env === 'secretKeyz',
    );
    for (const name of STANDALONE_ONLY_SETTINGS)
      assert.ok(
        SETTINGS.some((s) => s.env === name),
        name,
      );
  });

  it('leaves the standalone environment as it was: no mount path, a generated secret in embedded mode', () => {
    const config = loadConfig({ DATA_DIR: testDir('cfg') });
    assert.equal(config.mountPath, '');
    assert.equal(config.baseUrl, 'http://localhost:3000');
    assert.equal(config.secretKey.length, 32);
  });
});
