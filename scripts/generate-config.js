#!/usr/bin/env node
/**
 * Writes what the configuration schema (src/kernel/config) generates: the manifest's
 * `config`, defineConfig's option types (src/host/config-options.ts) and
 * docs/configuration.md. Runs first in `npm run build`, before tsc (which compiles the
 * generated types), so it reads the schema's TypeScript through esbuild. A file is written
 * only when its content changes (no rebuild churn). `--check` writes nothing and exits 1
 * naming each stale file: the staleness test runs it.
 */
'use strict';
const { existsSync, mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const ENTRY = path.join(ROOT, 'src/kernel/config/render/index.ts');

/** The renderers, compiled in memory (zod bundled in; a few hundred milliseconds). */
function loadRenderers() {
  const { buildSync } = require('esbuild');
  const { outputFiles } = buildSync({ entryPoints: [ENTRY], bundle: true, platform: 'node', format: 'cjs', target: 'node20', write: false, logLevel: 'error' });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', outputFiles[0].text)(module, module.exports, require);
  return module.exports;
}

async function main() {
  const check = process.argv.includes('--check');
  const prettier = require('prettier');
  const { generatedFiles } = loadRenderers();
  const read = (file) => readFileSync(path.join(ROOT, file), 'utf8');
  const stale = [];
  for (const { file, content } of generatedFiles(read)) {
    const absolute = path.join(ROOT, file);
    // Formatted as `npm run lint` checks it; files prettier ignores (Markdown) are kept as rendered.
    const { ignored } = await prettier.getFileInfo(absolute, { ignorePath: path.join(ROOT, '.prettierignore') });
    const formatted = ignored ? content : await prettier.format(content, { ...(await prettier.resolveConfig(absolute)), filepath: absolute });
    const current = existsSync(absolute) ? readFileSync(absolute, 'utf8') : undefined;
    if (current === formatted) continue;
    stale.push(file);
    if (check) continue;
    mkdirSync(path.dirname(absolute), { recursive: true });
    writeFileSync(absolute, formatted);
    process.stderr.write(`generate-config: wrote ${file}\n`);
  }
  if (check && stale.length > 0) {
    process.stderr.write(`generate-config: stale (run npm run build): ${stale.join(', ')}\n`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  process.stderr.write(`generate-config: ${error.stack ?? error}\n`);
  process.exitCode = 1;
});
