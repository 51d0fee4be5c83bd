#!/usr/bin/env node
/**
 * `npm run docs`: the API reference as static HTML. The OpenAPI document is the one the
 * running service answers at /v1/openapi.json: this script activates the built package
 * through its public entry (as an embedding host would) on an in-memory PGlite database,
 * asks its own router for the document, and hands it to Redocly's `build-docs`, which
 * writes one self-contained HTML file (no CDN: it opens offline).
 *
 *   build/api/openapi.json   the document
 *   build/api/index.html     the rendered reference
 *
 * `build/` is git-ignored. Run `npm run build` first (`npm run docs` does).
 */
/* global fetch */
'use strict';
const { execFileSync } = require('node:child_process');
const { mkdirSync, writeFileSync } = require('node:fs');
const { randomBytes } = require('node:crypto');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(ROOT, 'build', 'api');
/** The public URL the document's `servers` names: the standalone host's default. */
const SERVER_URL = process.env.BASE_URL ?? 'http://localhost:3000';

async function openApiDocument() {
  const express = require('express');
  const knex = require('knex');
  const ClientPgLite = require('knex-pglite');
  const { activate, defineConfig, migrate, HOST_CONTRACT_VERSION } = require(ROOT);

  const db = knex({ client: ClientPgLite, dialect: 'postgres', connection: {} });
  const quiet = { debug() {}, info() {}, warn() {}, error: (fields, msg) => console.error(msg, fields), child: () => quiet };
  const app = express();
  let plugin;
  try {
    await migrate(db);
    plugin = await activate(
      {
        contractVersion: HOST_CONTRACT_VERSION,
        config: defineConfig({ baseUrl: SERVER_URL, secretKey: randomBytes(32).toString('hex'), logLevel: 'silent' }),
        logger: quiet,
        database: db,
        hooks: { on: () => () => {}, emit: async () => {} },
        listings: { get: async () => undefined },
        pipeline: { deliver: async () => {} },
        http: {
          mount(mountPath, router) {
            app.use(mountPath, router);
            return () => {};
          },
        },
      },
      { role: 'all' }, // no startWorkers(): routers only, and no Redis needed
    );
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${server.address().port}/v1/openapi.json`);
      if (!response.ok) throw new Error(`/v1/openapi.json answered ${response.status}`);
      return await response.json();
    } finally {
      server.close();
    }
  } finally {
    await plugin?.dispose();
    await db.destroy();
  }
}

async function main() {
  const document = await openApiDocument();
  mkdirSync(OUT, { recursive: true });
  const source = path.join(OUT, 'openapi.json');
  writeFileSync(source, JSON.stringify(document, null, 2) + '\n');
  const redocly = path.join(ROOT, 'node_modules', '.bin', 'redocly');
  execFileSync(redocly, ['build-docs', source, '--inlineBundle', '--output', path.join(OUT, 'index.html')], {
    stdio: 'inherit',
    cwd: ROOT,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  console.log(
    `API reference: ${path.relative(process.cwd(), path.join(OUT, 'index.html'))} (${document.info?.title} ${document.info?.version}, ${Object.keys(document.paths ?? {}).length} paths)`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
