/** The manifest is the agreement with hosts: it must match its schema and the code. */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT, validateManifest, type Manifest } from '../../src/platform/manifest/manifest';
import { startTestHost, type TestHost } from '../helpers/test-host';

const manifest: Manifest = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'plugin.manifest.json'), 'utf8'));
const pkg = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8'));

describe('plugin manifest', () => {
  let t: TestHost;
  before(async () => {
    t = await startTestHost();
  });
  after(() => t?.close());

  it('is valid against its JSON Schema', () => {
    const result = validateManifest(manifest);
    assert.ok(result.valid, result.valid ? '' : result.errors.join('\n'));
  });

  it('the schema rejects what it should', () => {
    assert.equal(validateManifest({ ...manifest, engines: {} }).valid, false);
    assert.equal(validateManifest({ ...manifest, unexpected: true }).valid, false);
    assert.equal(validateManifest({ ...manifest, queues: [{ name: 'Bad Name', processor: 'x', concurrency: 1, attempts: 1, backoffMs: 0 }] }).valid, false);
    assert.equal(validateManifest({ ...manifest, hooks: [{ name: 'h', hook: 'x.y', action: 'NotAKey' }] }).valid, false);
  });

  it('has the package version and an entry module that exports activate', () => {
    assert.equal(manifest.version, pkg.version);
    assert.equal(manifest.id, pkg.name);
    const entry = require(path.join(PACKAGE_ROOT, manifest.entry));
    assert.equal(typeof entry.activate, 'function');
  });

  it('names exactly the routers the plugin mounts, at the same paths', () => {
    assert.deepEqual(t.host.plugin.routers.map((r) => `${r.name} ${r.mountPath}`).sort(), manifest.routers.map((r) => `${r.name} ${r.mountPath}`).sort());
  });

  it('names exactly the hook handlers the plugin registers, with their gating actions', () => {
    assert.deepEqual(
      t.host.plugin.hooks.map((h) => `${h.name} ${h.hook} ${h.action}`).sort(),
      manifest.hooks.map((h) => `${h.name} ${h.hook} ${h.action}`).sort(),
    );
  });

  it('names exactly the queues the plugin has processors for, each from a module in its feature jobs folder', () => {
    assert.deepEqual(t.host.plugin.queues.map((q) => q.name).sort(), manifest.queues.map((q) => q.name).sort());
    for (const queue of manifest.queues) {
      const module = require(path.join(PACKAGE_ROOT, queue.processor));
      assert.ok(Object.keys(module).length > 0, `${queue.processor} exports a processor`);
    }
  });

  it('points at a migrations folder that exists, loading only compiled migrations', () => {
    const files: string[] = require('node:fs').readdirSync(path.join(PACKAGE_ROOT, manifest.migrations.directory));
    assert.ok(files.some((f) => f.endsWith('.js')));
    assert.deepEqual(manifest.migrations.loadExtensions, ['.js'], 'knex would load .d.ts files with its default extensions');
  });
});
