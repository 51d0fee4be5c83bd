/**
 * The widget script as the plugin serves it: built by `npm run build`, under the size
 * budget, with the headers that let any listing page load it and caches keep it, and
 * with BASE_URL stamped in. Needs no browser.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { PACKAGE_ROOT, loadManifest } from '../../src/platform/manifest/manifest';
import { startTestHost, type TestHost } from '../helpers/test-host';

const GZIP_BUDGET = 12.5 * 1024;

describe('widget: the profile-apply.js bundle and its router', () => {
  let t: TestHost;
  const asset = () => readFileSync(path.join(PACKAGE_ROOT, loadManifest().widget.asset), 'utf8');

  before(async () => {
    t = await startTestHost({ env: { CDN_URL: 'https://cdn.example.com/assets' } });
  });
  after(async () => t?.close());

  it('is built, has no runtime imports, and stays under 12.5 KB gzipped', () => {
    const code = asset();
    const gzipped = gzipSync(code, { level: 9 }).length;
    assert.ok(gzipped < GZIP_BUDGET, `profile-apply.js is ${gzipped} bytes gzipped; the budget is ${GZIP_BUDGET}`);
    assert.doesNotMatch(code, /\brequire\(|\bimport\s*\(|^import\s/m, 'a self-contained script');
    assert.match(code, /customElements\.define\(/);
    assert.match(code.split('\n', 1)[0]!, /"__PROFILE_APPLY_API_BASE__"/, 'the base URL marker sits on line 1');
  });

  it('serves the stable name with a short cache, a strong ETag, CORP and nosniff, and BASE_URL stamped in', async () => {
    const res = await fetch(`${t.baseUrl}/widgets/profile-apply.js`, { headers: { 'Accept-Encoding': 'identity' } });
    const body = await res.text();
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(res.headers.get('cache-control'), 'public, max-age=300, stale-while-revalidate=3600');
    assert.equal(res.headers.get('cross-origin-resource-policy'), 'cross-origin');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const etag = res.headers.get('etag');
    assert.match(etag ?? '', /^"[0-9a-f]{12}"$/);
    assert.ok(body.split('\n', 1)[0]!.includes(JSON.stringify(t.baseUrl)), 'BASE_URL replaces the marker');
    assert.ok(!body.includes('__PROFILE_APPLY_API_BASE__'));
    assert.equal(body.length, asset().length - '__PROFILE_APPLY_API_BASE__'.length + t.baseUrl.length, 'only the marker changed');

    const again = await fetch(`${t.baseUrl}/widgets/profile-apply.js`, { headers: { 'If-None-Match': etag!, 'Accept-Encoding': 'identity' } });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), '');

    const gzipped = await fetch(`${t.baseUrl}/widgets/profile-apply.js`, { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(gzipped.status, 200);
    assert.equal(gzipped.headers.get('content-encoding'), 'gzip');
    assert.equal(gzipped.headers.get('vary'), 'Accept-Encoding');
    assert.notEqual(gzipped.headers.get('etag'), etag, 'each encoding has its own strong ETag');
    assert.equal(await gzipped.text(), body);
  });

  it('serves a content-hashed name for a year (immutable), describes it in profile-apply.json, and 404s other hashes', async () => {
    const info = await t.request('GET', '/widgets/profile-apply.json');
    assert.equal(info.status, 200);
    assert.equal(info.body.element, 'profile-apply');
    assert.equal(info.body.url, 'https://cdn.example.com/assets/widgets/profile-apply.js', 'pages load it from CDN_URL');
    assert.match(info.body.versioned_url, /^https:\/\/cdn\.example\.com\/assets\/widgets\/profile-apply\.[0-9a-f]{12}\.js$/);
    assert.equal(info.body.api_base, t.baseUrl);
    assert.match(info.body.integrity, /^sha384-[A-Za-z0-9+/]+=*$/);

    const hashed = path.basename(info.body.versioned_url);
    const res = await fetch(`${t.baseUrl}/widgets/${hashed}`, { headers: { 'Accept-Encoding': 'identity' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(res.headers.get('cross-origin-resource-policy'), 'cross-origin');
    const body = await res.text();
    const { createHash } = await import('node:crypto');
    assert.equal(`sha384-${createHash('sha384').update(body).digest('base64')}`, info.body.integrity, 'the integrity covers the served bytes');

    const stale = await t.request('GET', '/widgets/profile-apply.000000000000.js');
    assert.equal(stale.status, 404);
    assert.equal(stale.body.error.code, 'resource_missing');
  });

  it('serves each fetched catalog under its content hash, immutable and open to any page', async () => {
    const meta = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'dist', 'widgets', 'profile-apply.meta.json'), 'utf8')) as { locales: Record<string, string> };
    assert.deepEqual(Object.keys(meta.locales).sort(), ['ar', 'de', 'es', 'fr', 'pt']);
    const bundle = asset();
    for (const [locale, file] of Object.entries(meta.locales)) {
      assert.match(file, new RegExp(`^${locale}\\.[0-9a-f]{12}\\.json$`));
      assert.ok(bundle.includes(file), `the bundle knows ${file}`);
      const res = await fetch(`${t.baseUrl}/widgets/locales/${file}`);
      assert.equal(res.status, 200, file);
      assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      const catalog = (await res.json()) as Record<string, unknown>;
      assert.equal(typeof catalog.button, 'string');
    }
    for (const missing of ['es.000000000000.json', 'es.json', '..%2Fprofile-apply.meta.json']) {
      const res = await t.request('GET', `/widgets/locales/${missing}`);
      assert.equal(res.status, 404, missing);
    }
  });

  it('serves the source map', async () => {
    const res = await fetch(`${t.baseUrl}/widgets/profile-apply.js.map`);
    assert.equal(res.status, 200);
    const map = (await res.json()) as { version: number; sources: string[] };
    assert.equal(map.version, 3);
    assert.ok(map.sources.some((s) => s.endsWith('src/widget/profile-apply.ts')));
  });
});
