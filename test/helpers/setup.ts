/**
 * Loaded by mocha before any test file (see .mocharc.json). Under `--parallel` (npm test) each
 * worker loads it too, and the root `afterAll` runs after every file: its checks then cover the
 * files that worker ran.
 */
import 'reflect-metadata';
import { strict as assert } from 'node:assert';
import { leakedSecrets, rememberedSecretCount, resetTestLog } from './log-capture';
import { conformanceMismatches, recordedCount, setCurrentTest } from './openapi-conformance';
import { removeTestDirs } from './temp-dirs';

process.env.NODE_ENV = 'test';

/** Once per run, in mocha's main process (also under --parallel, where each worker loads this file). */
export function mochaGlobalSetup() {
  resetTestLog();
}

export const mochaHooks = {
  beforeEach(this: Mocha.Context) {
    setCurrentTest(this.currentTest?.fullTitle() ?? '');
  },
  /** Removes the run's temporary folders. Security: no API key, candidate token or OAuth token in any log line of the whole run. */
  afterAll(this: Mocha.Context) {
    removeTestDirs();
    const leaks = leakedSecrets();
    assert.deepEqual(leaks, [], `credentials found in the test run's log (checked ${rememberedSecretCount()}):\n${leaks.join('\n')}`);
    // OpenAPI conformance: every response any test host sent, checked against /v1/openapi.json.
    const mismatches = conformanceMismatches();
    assert.deepEqual(mismatches, [], `responses not described by /v1/openapi.json (checked ${recordedCount()}):\n${mismatches.join('\n')}`);
  },
};
