/**
 * What a test run leaves and says: no hi-* folders in the temporary directory afterwards,
 * and every skipped test names why (mocha otherwise lists it as pending, bare).
 */
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../../src/platform/manifest/manifest';
import { testDir } from '../helpers/temp-dirs';

const MOCHA = path.join(PACKAGE_ROOT, 'node_modules/mocha/bin/mocha.js');

interface JsonReport {
  stats: { tests: number; pending: number; failures: number };
  pending: { fullTitle: string }[];
}

/** Runs compiled test files in a mocha of their own, with `env`, and reads its JSON report. */
async function runMocha(files: string[], env: Record<string, string | undefined>): Promise<JsonReport> {
  const { stdout } = await promisify(execFile)(process.execPath, [MOCHA, '--reporter', 'json', ...files.map((f) => path.join(PACKAGE_ROOT, 'dist/test', f))], {
    cwd: PACKAGE_ROOT,
    env: { PATH: process.env.PATH, ...env } as NodeJS.ProcessEnv,
    maxBuffer: 32 * 1024 * 1024,
  }).catch((error: { stdout: string; stderr: string }) => ({ stdout: error.stdout || assert.fail(error.stderr) }));
  return JSON.parse(stdout.slice(stdout.indexOf('{\n'))) as JsonReport;
}

describe('test runs', function () {
  this.timeout(180_000);

  it('leave no hi-* folder in the temporary directory', async () => {
    const tmp = testDir('hygiene');
    const report = await runMocha(['unit/config.test.js', 'unit/embedding-config.test.js', 'unit/config-checks.test.js'], { TMPDIR: tmp });
    assert.ok(report.stats.tests >= 10 && report.stats.failures === 0, JSON.stringify(report.stats));
    assert.deepEqual(readdirSync(tmp), []);
  });

  it('say why each skipped test is skipped (here: Redis and PostgreSQL tests without REDIS_URL and DATABASE_URL)', async () => {
    const report = await runMocha(
      ['integration/reliability-redis-outage.test.js', 'integration/reliability-crash-recovery.test.js', 'integration/webhooks-reliability.test.js'],
      { TMPDIR: testDir('skips') },
    );
    assert.ok(report.stats.pending > 0, 'the run skipped something');
    const bare = report.pending.filter((test) => !/\(skipped: .+\)/.test(test.fullTitle));
    assert.deepEqual(
      bare.map((t) => t.fullTitle),
      [],
    );
  });

  it('never skip without a reason in the source (skipBecause, never a bare skip call)', () => {
    const bare: string[] = [];
    const visit = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) visit(file);
        else if (file.endsWith('.ts') && !file.endsWith(path.join('helpers', 'skip.ts')) && /\b(this|context)\.skip\(\)/.test(readFileSync(file, 'utf8')))
          bare.push(path.relative(PACKAGE_ROOT, file));
      }
    };
    visit(path.join(PACKAGE_ROOT, 'test'));
    assert.deepEqual(bare, []);
  });
});
