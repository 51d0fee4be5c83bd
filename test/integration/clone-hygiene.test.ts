/** A clone stays clean: `npm install` rewrites nothing, and every license statement is the package's (Apache-2.0). */
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildOpenApiDocument } from '../../src/platform/http/openapi';
import { PACKAGE_ROOT } from '../../src/platform/manifest/manifest';
import { testDir } from '../helpers/temp-dirs';

const pkg = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { license: string; version: string };

describe('a clone', function () {
  this.timeout(120_000);

  it('npm install leaves the lock file as committed', async () => {
    const dir = testDir('lock');
    for (const file of ['package.json', 'package-lock.json']) copyFileSync(path.join(PACKAGE_ROOT, file), path.join(dir, file));
    // Only the lock file's resolution, from npm's cache (no download, no install scripts).
    await promisify(execFile)('npm', ['install', '--package-lock-only', '--ignore-scripts', '--offline', '--no-audit', '--no-fund'], { cwd: dir });
    assert.equal(readFileSync(path.join(dir, 'package-lock.json'), 'utf8'), readFileSync(path.join(PACKAGE_ROOT, 'package-lock.json'), 'utf8'));
  });

  it("states the package's license everywhere: package.json, the lock file, the OpenAPI document", () => {
    assert.equal(pkg.license, 'Apache-2.0');
    const lock = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { license?: string }> };
    assert.equal(lock.packages['']!.license, pkg.license);
    const document = buildOpenApiDocument([], { version: pkg.version, serverUrl: 'http://localhost' }) as { info: { license: { identifier: string } } };
    assert.equal(document.info.license.identifier, pkg.license);
  });
});
