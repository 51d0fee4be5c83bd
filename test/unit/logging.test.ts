import { strict as assert } from 'node:assert';
import { Writable } from 'node:stream';
import { generateApiKey } from '../../src/features/organizations/domain/api-key';
import { createLogger, scrubSecrets } from '../../src/platform/logging/pino-logger';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: createLogger({ level: 'debug', destination }) };
}

describe('structured logs', () => {
  it('redact credentials in fields', () => {
    const { lines, logger } = capture();
    const key = generateApiKey().plaintext;
    logger.info({ authorization: `Bearer ${key}`, headers: { authorization: key }, api_key: key, nested: { refresh_token: 'rt_secret_value_123456' } }, 'call');
    assert.equal(lines.length, 1);
    assert.ok(!lines[0]!.includes(key.slice(17)), lines[0]);
    assert.ok(!lines[0]!.includes('rt_secret_value_123456'));
    assert.match(lines[0]!, /\[REDACTED\]/);
  });

  it('scrub bearer tokens and keys from messages', () => {
    const key = generateApiKey().plaintext;
    const scrubbed = scrubSecrets(`failed with Bearer abc.def and key ${key}`);
    assert.ok(!scrubbed.includes('abc.def'));
    assert.ok(!scrubbed.includes(key.slice(17)));
    assert.ok(scrubbed.includes(key.slice(0, 16)), 'the public prefix stays for debugging');
    const { lines, logger } = capture();
    logger.warn({}, `upstream said: Bearer ${key}`);
    assert.ok(!lines[0]!.includes(key.slice(17)));
  });
});
