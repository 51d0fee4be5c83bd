#!/usr/bin/env node
/**
 * Skips the build when nothing it reads changed. `npm run build` ends with
 * `build-stamp.js` (records the sources' fingerprint in dist/.build-stamp); `npm start`
 * runs `build-stamp.js --ensure` first, which builds only when the fingerprint differs
 * (a fresh clone, or an edited, added or removed source file) and says so. The
 * fingerprint is every source path with its size and mtime: a stat per file, no reads.
 */
'use strict';
const { createHash } = require('node:crypto');
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, readFileSync, statSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const STAMP = path.join(ROOT, 'dist', '.build-stamp');
/** What the runtime build reads (tests and benchmarks are built by `npm test` / `npm run bench`). */
const SOURCES = ['src', 'migrations', 'scripts', 'bin', 'tsconfig.json', 'package.json', 'plugin.manifest.json'];

function fingerprint() {
  const hash = createHash('sha256');
  const visit = (relative) => {
    const absolute = path.join(ROOT, relative);
    let stat;
    try {
      stat = statSync(absolute);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      for (const name of readdirSync(absolute).sort()) visit(path.join(relative, name));
    } else {
      hash.update(`${relative}\0${stat.size}\0${stat.mtimeMs}\n`);
    }
  };
  for (const source of SOURCES) visit(source);
  return hash.digest('hex');
}

/** What `npm start` and the bin script run, and the widget they serve. */
const OUTPUTS = [path.join('dist', 'src', 'standalone', 'cli', 'cli.js'), path.join('dist', 'widgets', 'profile-apply.js')];

function built() {
  return OUTPUTS.every((output) => existsSync(path.join(ROOT, output)));
}

if (process.argv.includes('--ensure')) {
  const current = fingerprint();
  const stamp = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : '';
  if (built() && stamp === current) process.exit(0);
  process.stderr.write(
    built()
      ? 'hiring-integrations: sources changed since the last build; building (npm run build)...\n'
      : 'hiring-integrations: first start, building the project (npm run build, about a minute)...\n',
  );
  execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  // The fingerprint from before the build: a file edited during the build rebuilds next time.
  writeFileSync(STAMP, current);
  process.stderr.write('hiring-integrations: build done; starting\n');
} else {
  writeFileSync(STAMP, fingerprint());
}
