#!/usr/bin/env node
/**
 * Bundles the <profile-apply> widget (src/widget, TypeScript, no runtime dependencies)
 * with esbuild into dist/widgets/:
 *
 *   profile-apply.js          the stable name (what the plugin serves at /widgets/profile-apply.js)
 *   profile-apply.<hash>.js   the same bytes under a content-hashed name, for static CDN hosting
 *   profile-apply.js.map      its source map
 *   profile-apply.meta.json   { version, hash, bytes, gzip_bytes, locales }
 *   locales/<locale>.<hash>.json  each catalog but English (src/widget/i18n/<locale>.ts), which
 *                             the widget fetches for a candidate who reads that language; the
 *                             bundle knows their names through a define
 *
 * Line 1 of the bundle holds a marker string, `"__PROFILE_APPLY_API_BASE__"`, which the
 * plugin's widget router replaces with BASE_URL when it serves the file, so a copy served
 * through a CDN (CDN_URL) still calls the API at BASE_URL. Line 1 has no source-map
 * mappings, so the replacement leaves the map correct. Type checking is
 * `tsc -p src/widget/tsconfig.json` (npm run build runs it first).
 */
'use strict';
const { createHash } = require('node:crypto');
const { mkdirSync, readdirSync, rmSync, writeFileSync, readFileSync } = require('node:fs');
const path = require('node:path');
const { gzipSync } = require('node:zlib');
const esbuild = require('esbuild');

const ROOT = path.resolve(__dirname, '..');
const OUT_DIR = path.join(ROOT, 'dist', 'widgets');
const MARKER = '__PROFILE_APPLY_API_BASE__';
// 12 KiB until the contact fields (email, phone: issue 25's background checks need the email) took it past; 12.5 KiB since.
const MAX_GZIP_BYTES = 12.5 * 1024;
const I18N_DIR = path.join(ROOT, 'src', 'widget', 'i18n');
const LOCALES_DIR = path.join(OUT_DIR, 'locales');
/** Not catalogs: the English source (inline), the types, the loader. */
const NOT_CATALOGS = new Set(['en', 'catalog', 'load']);

/** Each locale's catalog as JSON, written under its content hash: { es: 'es.<hash>.json', ... }. */
async function buildCatalogs() {
  rmSync(LOCALES_DIR, { recursive: true, force: true });
  mkdirSync(LOCALES_DIR, { recursive: true });
  const locales = {};
  for (const file of readdirSync(I18N_DIR).sort()) {
    const locale = path.basename(file, '.ts');
    if (!file.endsWith('.ts') || NOT_CATALOGS.has(locale)) continue;
    const result = await esbuild.build({
      entryPoints: [path.join(I18N_DIR, file)],
      bundle: true,
      format: 'cjs',
      platform: 'neutral',
      write: false,
      logLevel: 'warning',
    });
    const module = { exports: {} };
    new Function('module', 'exports', result.outputFiles[0].text)(module, module.exports);
    const catalog = module.exports.default;
    if (!catalog || typeof catalog.button !== 'string') throw new Error(`${file} has no default-exported catalog`);
    const json = `${JSON.stringify(catalog)}\n`;
    const hash = createHash('sha256').update(json).digest('hex').slice(0, 12);
    const name = `${locale}.${hash}.json`;
    writeFileSync(path.join(LOCALES_DIR, name), json);
    locales[locale] = name;
  }
  return locales;
}
const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

async function main() {
  mkdirSync(OUT_DIR, { recursive: true });
  for (const file of readdirSync(OUT_DIR)) {
    if (/^profile-apply\.[0-9a-f]+\.js$/.test(file)) rmSync(path.join(OUT_DIR, file));
  }
  const outfile = path.join(OUT_DIR, 'profile-apply.js');
  const locales = await buildCatalogs();
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'src', 'widget', 'profile-apply.ts')],
    outfile,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome91', 'firefox90', 'safari15', 'edge91'],
    minify: true,
    // Property names ending in `_` never leave the bundle (the view's context, src/widget/view.ts):
    // the minifier may shorten them like local names. DOM, API and event names never end in `_`.
    mangleProps: /_$/,
    sourcemap: 'linked',
    sourcesContent: true,
    legalComments: 'none',
    charset: 'utf8',
    tsconfig: path.join(ROOT, 'src', 'widget', 'tsconfig.json'),
    define: { PROFILE_APPLY_LOCALES: JSON.stringify(locales) },
    banner: { js: `/*! profile-apply ${version} */(()=>{var PROFILE_APPLY_INJECTED_BASE="${MARKER}";` },
    footer: { js: '})();' },
    logLevel: 'warning',
  });
  const code = readFileSync(outfile);
  if (!code.toString('utf8').split('\n', 1)[0].includes(MARKER)) throw new Error('the base URL marker is not on line 1 of the bundle');
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 12);
  writeFileSync(path.join(OUT_DIR, `profile-apply.${hash}.js`), code);
  const gzipBytes = gzipSync(code, { level: 9 }).length;
  const meta = { version, hash, bytes: code.length, gzip_bytes: gzipBytes, locales };
  writeFileSync(path.join(OUT_DIR, 'profile-apply.meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
  if (gzipBytes > MAX_GZIP_BYTES) throw new Error(`profile-apply.js is ${gzipBytes} bytes gzipped; the budget is ${MAX_GZIP_BYTES}`);
  // stderr: `npm pack --json` runs the build (prepare) and its stdout must stay JSON.
  process.stderr.write(
    `widget: dist/widgets/profile-apply.js ${code.length} bytes, ${gzipBytes} gzipped (${hash}); catalogs: en inline, ${Object.keys(locales).join(', ')} fetched\n`,
  );
}

main().catch((error) => {
  process.stderr.write(`widget build failed: ${error.message}\n`);
  process.exit(1);
});
