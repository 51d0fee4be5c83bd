#!/usr/bin/env node
/**
 * `prepare` and `prestart`: brings dist/ up to date with `npm run build`, saying so, since
 * the first build takes a few seconds. Without the dev dependencies (`npm ci --omit=dev`
 * on a package that ships dist/), there is no compiler: an existing dist/ is used as it is
 * and the install does not fail.
 */
'use strict';
const { existsSync } = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
const built = existsSync(path.join(ROOT, 'dist', 'src', 'standalone', 'cli.js'));

let compiler = true;
try {
  // Production dependencies may pull typescript in on their own; the build also needs these dev-only ones.
  for (const name of ['typescript', 'esbuild', 'prettier', '@types/node/package.json']) require.resolve(name, { paths: [ROOT] });
} catch {
  compiler = false;
}

if (!compiler) {
  if (built) {
    process.stderr.write('hiring-integrations: no dev dependencies installed; using the existing dist/\n');
    process.exit(0);
  }
  process.stderr.write('hiring-integrations: dist/ is missing and TypeScript is not installed: run `npm install` (with dev dependencies) to build\n');
  // An install without dev dependencies must not fail; starting without dist/ will.
  process.exit(process.env.npm_lifecycle_event === 'prepare' ? 0 : 1);
}

const started = Date.now();
process.stderr.write(
  built
    ? 'hiring-integrations: checking the build (incremental)…\n'
    : 'hiring-integrations: first build: compiling TypeScript and bundling the widget (about 10 s)…\n',
);
const result = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
process.stderr.write(`hiring-integrations: build ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
