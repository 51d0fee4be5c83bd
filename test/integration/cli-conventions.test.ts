/**
 * The CLI as users of other CLIs expect it (commander): --version/-V/-v, -h and --help on
 * every command with examples, exit codes 0/1/2, one-line runtime errors, .env read first,
 * settings checked by range and scheme. And `serve` on PostgreSQL + Redis: workers in the
 * same process, the demo only when asked, its state apart, never a dead key.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../src/platform/manifest/manifest';
import { runCli } from '../helpers/cli';
import { testEnv } from '../helpers/config';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { rememberSecretsIn } from '../helpers/log-capture';
import { freePort, killAll, startProcess, waitForHttp, type AppProcess } from '../helpers/processes';
import { usingRedis } from '../helpers/redis';
import { request } from '../helpers/test-host';
import { buildProgram } from '../../src/standalone/cli/cli';
import { skipBecause } from '../helpers/skip';
import { testDir } from '../helpers/temp-dirs';

const VERSION = (JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

const cli = (args: string[], env: Record<string, string | undefined> = {}, cwd = PACKAGE_ROOT) => runCli(args, env, cwd);

describe('CLI conventions', function () {
  this.timeout(60_000);

  it('--version, -V and -v print the version; -h and --help print help with exit codes', () => {
    for (const flag of ['--version', '-V', '-v']) {
      const result = cli([flag]);
      assert.equal(result.code, 0, `${flag}: ${result.stderr}`);
      assert.equal(result.stdout.trim(), VERSION);
    }
    for (const flag of ['-h', '--help']) {
      const result = cli([flag]);
      assert.equal(result.code, 0);
      assert.match(result.stdout, /Usage: hiring-integrations/);
      assert.match(result.stdout, /Exit codes: 0 success, 1 failure, 2 usage error/);
    }
  });

  it('every command has --help with an example; listing create documents the --questions format', () => {
    // In-process (the same program the binary runs): nine child processes would cost seconds each.
    const program = buildProgram();
    const helpOf = (words: string[]) => {
      let command = program;
      for (const word of words) command = command.commands.find((c) => c.name() === word)!;
      let text = '';
      command.configureOutput({ writeOut: (chunk) => (text += chunk) });
      command.outputHelp();
      return text;
    };
    for (const command of [
      ['serve'],
      ['worker'],
      ['migrate'],
      ['org', 'create'],
      ['key', 'rotate'],
      ['key', 'revoke'],
      ['listing', 'create'],
      ['catalog', 'sync'],
    ]) {
      const help = helpOf(command);
      assert.match(help, new RegExp(`Usage: hiring-integrations ${command.join(' ')}`));
      assert.match(help, /Examples?[^\n]*:\n\s+\$ hiring-integrations /, `${command.join(' ')} has an example`);
    }
    const listing = helpOf(['listing', 'create']);
    assert.match(listing, /"type": "number" \| "boolean" \| "text" \| "select"/);
    assert.match(listing, /--questions '\[\{"key":"years_experience"/);
    assert.equal(cli(['listing', 'create', '--help']).code, 0);
  });

  it('usage errors exit 2 with the usage; runtime errors exit 1 with one line and no usage', () => {
    const usage = cli(['org', 'create', '--name', 'x', '--nmae', 'y']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /^error: unknown option '--nmae'/);
    assert.match(usage.stderr, /Usage: hiring-integrations org create/);

    const runtime = cli(['worker'], { ...testEnv(), REDIS_URL: undefined });
    assert.equal(runtime.code, 1, runtime.stderr);
    assert.equal(runtime.stderr.trim().split('\n').length, 1, runtime.stderr);
    assert.match(runtime.stderr, /^error: REDIS_URL is required for a separate worker/);
    assert.doesNotMatch(runtime.stderr, /Usage:/);
  });

  it('reads .env from the working directory; the environment wins over it', () => {
    const dir = testDir('dotenv');
    writeFileSync(path.join(dir, '.env'), 'PORT=70000\nBASE_URL=ftp://files.example\n');
    const fromFile = cli(['migrate'], { DATA_DIR: path.join(dir, 'data') }, dir);
    assert.equal(fromFile.code, 2);
    assert.match(fromFile.stderr, /^configuration error: PORT: must be between 0 and 65535, got 70000/);
    const overridden = cli(['migrate'], { DATA_DIR: path.join(dir, 'data'), PORT: '3000' }, dir);
    assert.equal(overridden.code, 2);
    assert.match(overridden.stderr, /BASE_URL: must be a http or https URL, got ftp:/);
  });

  describe('serve on PostgreSQL + Redis', () => {
    let database: TestDatabase;
    let dataDir: string;
    let env: Record<string, string | undefined>;
    const started: AppProcess[] = [];

    before(async function () {
      if (!usingRedis() || !process.env.DATABASE_URL) skipBecause(this, 'needs DATABASE_URL and REDIS_URL: the CLI runs beside a server');
      database = await createTestDatabase();
      dataDir = testDir('serve');
      env = {
        ...testEnv({ DATABASE_URL: database.url, DATA_DIR: dataDir }),
        NODE_ENV: 'development',
        HOST: '127.0.0.1',
        WORKER_HTTP_PORT: '0',
        LOG_LEVEL: 'warn',
      };
    });
    after(async () => {
      for (const p of started) await p.stop('SIGTERM').catch(() => undefined);
      await killAll();
      await database?.drop();
    });

    async function serve(args: string[]): Promise<{ proc: AppProcess; url: string; banner: string }> {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const proc = startProcess('serve', ['node', 'bin/hiring-integrations.js', 'serve', ...args], { ...env, PORT: String(port), BASE_URL: url });
      started.push(proc);
      await waitForHttp(`${url}/healthz`, proc);
      const deadline = Date.now() + 15_000;
      while (!proc.output().includes('API reference') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      return { proc, url, banner: proc.output() };
    }

    it('runs the workers in the same process and seeds no demo unless asked', async () => {
      const { proc, url, banner } = await serve([]);
      assert.match(banner, /BullMQ on Redis, workers in this process/);
      assert.doesNotMatch(banner, /demo API key/);
      assert.match(banner, /serve --demo/);
      assert.equal((await request(url, 'GET', '/demo/pipeline')).status, 404, 'no unauthenticated demo pipeline on PostgreSQL');
      await proc.stop('SIGTERM');
    });

    it('with --demo: the demo license is provisioned by the in-process worker; state apart from the embedded demo; a revoked key is never printed', async () => {
      const first = await serve(['--demo']);
      const key = /demo API key: +(\S+)/.exec(first.banner)?.[1];
      const organization = /demo organization: +(\S+)/.exec(first.banner)?.[1];
      const listing = /demo listing: +(\S+)/.exec(first.banner)?.[1];
      assert.ok(key && organization && listing, first.banner);
      rememberSecretsIn(key);
      // The license needs a worker: the listing becomes readable only once it is active.
      let status = 0;
      for (let i = 0; i < 100 && status !== 200; i++) {
        status = (await request(first.url, 'GET', `/v1/public/organizations/${organization}/listings/${listing}`)).status;
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(status, 200, 'the demo license was provisioned in this process');
      assert.equal(existsSync(path.join(dataDir, 'demo-credentials.json')), false, "the embedded demo's file is untouched");
      await first.proc.stop('SIGTERM');

      const revoked = cli(['key', 'revoke', '--key', key!], { ...env });
      assert.equal(revoked.code, 0, revoked.stderr);
      const second = await serve(['--demo']);
      const printed = /demo API key: +(\S+)/.exec(second.banner)?.[1];
      assert.ok(printed && printed !== key, 'a new key, not the revoked one');
      rememberSecretsIn(printed);
      assert.equal((await request(second.url, 'GET', '/v1/organization', { auth: printed })).status, 200, 'the printed key works');
      await second.proc.stop('SIGTERM');
    });
  });
});
