/**
 * The CLI as a newcomer meets it: --help loads no heavy module (knex, express, BullMQ,
 * pdfkit, ioredis, PGlite, zod) so it answers at once; a clone runs it as `npm run cli --`;
 * a command refused because the embedded server holds DATA_DIR exits 75 (busy), not 2 (usage).
 */
import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../src/platform/manifest/manifest';
import { testDir } from '../helpers/temp-dirs';

const BIN = path.join(PACKAGE_ROOT, 'bin/hiring-integrations.js');
const HEAVY = /^(knex|express|bullmq|pdfkit|ioredis|pg|zod|@electric-sql\/pglite|grant|pino)(\/|$)/;

describe('CLI start-up', function () {
  this.timeout(120_000);

  it('--help loads none of the heavy modules (and says how long it took)', () => {
    // Records every bare module the CLI requires, then prints the help as the bin does.
    const probe = `
      const Module = require('node:module');
      const load = Module._load;
      const loaded = new Set();
      Module._load = function (request) { if (!request.startsWith('.') && !request.startsWith('node:')) loaded.add(request); return load.apply(this, arguments); };
      const started = process.hrtime.bigint();
      require(${JSON.stringify(BIN)});
      process.on('exit', () => process.stderr.write(JSON.stringify({ loaded: [...loaded], ms: Number(process.hrtime.bigint() - started) / 1e6 })));`;
    const result = spawnSync(process.execPath, ['-e', probe, '--', '--help'], { cwd: PACKAGE_ROOT, encoding: 'utf8', env: { PATH: process.env.PATH } });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /Commands at a glance/);
    const { loaded, ms } = JSON.parse(result.stderr) as { loaded: string[]; ms: number };
    assert.deepEqual(
      loaded.filter((name) => HEAVY.test(name)),
      [],
    );
    process.stdout.write(`      --help: ${ms.toFixed(0)} ms after node started, ${loaded.length} bare modules\n`);
  });

  it('runs in a clone as npm run cli -- <command>', () => {
    const result = spawnSync('npm', ['run', '--silent', 'cli', '--', '--version'], { cwd: PACKAGE_ROOT, encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout.trim(), /^\d+\.\d+\.\d+/);
  });

  it('refuses a database command while the embedded server holds DATA_DIR with exit code 75 (busy), naming the server', () => {
    const dataDir = testDir('busy');
    // A live process other than the CLI: this test's own.
    writeFileSync(path.join(dataDir, 'server.pid'), String(process.pid));
    const result = spawnSync(process.execPath, [BIN, 'org', 'create', '--name', 'Acme'], {
      cwd: dataDir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, NODE_ENV: 'development', LOG_LEVEL: 'silent' },
    });
    assert.equal(result.status, 75, result.stderr);
    assert.match(result.stderr, new RegExp(`embedded server \\(pid ${process.pid}\\) holds`));
    const help = spawnSync(process.execPath, [BIN, '--help'], { encoding: 'utf8' });
    assert.match(help.stdout, /75 busy/);
  });

  it('serve says what it is doing before the embedded database starts (a first start is long and must not look hung)', async () => {
    const dataDir = testDir('first-start');
    const started = Date.now();
    const child = spawn(process.execPath, [BIN, 'serve'], {
      cwd: dataDir,
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'development', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const first = await new Promise<string>((resolve, reject) => {
        child.stderr.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8')));
        child.once('exit', (code) => reject(new Error(`serve exited ${code} before printing anything`)));
      });
      const ms = Date.now() - started;
      assert.match(first, /first start: creating the embedded database in .*pglite/);
      process.stdout.write(`      first progress line after ${ms} ms (process start included)\n`);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
