/** Loaded by mocha before any test file (see .mocharc.json). */
import 'reflect-metadata';
import { strict as assert } from 'node:assert';
import { leakedSecrets, rememberedSecretCount, resetTestLog } from './log-capture';

process.env.NODE_ENV = 'test';
resetTestLog();

export const mochaHooks = {
  /** Security: no API key, candidate token or OAuth token in any log line of the whole run. */
  afterAll(this: Mocha.Context) {
    const leaks = leakedSecrets();
    assert.deepEqual(leaks, [], `credentials found in the test run's log (checked ${rememberedSecretCount()}):\n${leaks.join('\n')}`);
  },
};
