/**
 * The layer rules fail on an import against them: a throwaway tree with one wrong-direction
 * import per rule, checked with the project's own dependency-cruiser configuration (what
 * `npm run lint` runs through `npm run layers`), names each broken rule; the allowed import
 * in the same tree is not reported.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../src/platform/manifest/manifest';
import { testDir } from '../helpers/temp-dirs';

const TREE: Record<string, string> = {
  'src/kernel/clock.ts': "import '../platform/database';\nexport const now = 1;\n",
  'src/platform/database.ts': "import '../features/billing/domain/service';\nexport const db = 1;\n",
  'src/platform/queue.ts': 'export const queue = 1;\n',
  'src/features/billing/domain/service.ts':
    "import 'express';\nimport '../../../platform/queue';\nimport '../../listings/storage/repository';\nexport const service = 1;\n",
  'src/features/listings/storage/repository.ts': 'export const repository = 1;\n',
  // Allowed: a domain may use the kernel.
  'src/features/listings/domain/listing.ts': "import '../../../kernel/clock';\nexport const listing = 1;\n",
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'commonjs', moduleResolution: 'node', strict: true }, include: ['src'] }),
};

describe('layer rules (dependency-cruiser, as npm run lint runs them)', function () {
  this.timeout(60_000);

  it('names every rule a wrong-direction import breaks, and passes the allowed one', () => {
    const root = testDir('layers');
    for (const [file, text] of Object.entries(TREE)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    symlinkSync(path.join(PACKAGE_ROOT, 'node_modules'), path.join(root, 'node_modules'), 'dir');
    const result = spawnSync(
      process.execPath,
      [
        path.join(PACKAGE_ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
        'src',
        '--config',
        path.join(PACKAGE_ROOT, '.dependency-cruiser.cjs'),
        '--output-type',
        'json',
      ],
      { cwd: root, encoding: 'utf8' },
    );
    assert.ok(result.stdout, result.stderr);
    const violations: { rule: { name: string }; from: string; to: string }[] = JSON.parse(result.stdout).summary.violations;
    const broken = (from: string) =>
      violations
        .filter((v) => v.from === from)
        .map((v) => v.rule.name)
        .sort();
    assert.deepEqual(broken('src/kernel/clock.ts'), ['kernel-depends-on-nothing']);
    assert.deepEqual(broken('src/platform/database.ts'), ['platform-knows-no-features']);
    assert.deepEqual(broken('src/features/billing/domain/service.ts'), [
      'domain-knows-no-frameworks',
      'domain-stays-in-its-feature',
      'domain-uses-no-adapters',
    ]);
    assert.deepEqual(broken('src/features/listings/domain/listing.ts'), []);
  });
});
