/**
 * The package as an ATS operator gets it: `npm pack`, installed into a fixture ATS
 * (test/fixtures/ats, plain JavaScript against the public exports only) that has its own
 * tables, UUID listing ids, its own /healthz, the plugin mounted under /careers/hi, and
 * the api and worker roles in separate processes. A TypeScript host type-checks against
 * the package's types. The install reuses this repository's node_modules (hard links, no
 * network): npm only adds the tarball and prunes what the fixture does not depend on.
 */
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import knex, { type Knex } from 'knex';
import { PACKAGE_ROOT } from '../../src/platform/manifest/manifest';
import { createTestDatabase, usingPostgres, type TestDatabase } from '../helpers/database';
import { rememberSecret } from '../helpers/log-capture';
import { freePort, startProcess, testSecrets, waitForHttp, type AppProcess } from '../helpers/processes';
import { ADA, enableProfileApply, runConnect, waitFor } from '../helpers/profile-flow';
import { requireRedis, uniqueQueuePrefix } from '../helpers/redis';
import { request } from '../helpers/test-host';
import { skipBecause } from '../helpers/skip';

const run = promisify(execFile);
const FIXTURE = path.join(PACKAGE_ROOT, 'test/fixtures/ats');
const MOUNT_PATH = '/careers/hi';

interface PackedFile {
  path: string;
}
interface PackResult {
  name: string;
  filename: string;
  files: PackedFile[];
}

/**
 * `npm pack --json` into `dir`, lifecycle scripts included: `prepare` runs the build (a
 * no-op after pretest's), and its output must not break the JSON on stdout.
 */
async function pack(dir: string): Promise<PackResult> {
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: PACKAGE_ROOT, maxBuffer: 16 * 1024 * 1024 });
  const parsed = JSON.parse(stdout) as PackResult[];
  assert.equal(parsed.length, 1);
  return parsed[0]!;
}

/** A fixture ATS folder with the tarball installed as a dependency, offline. */
async function install(dir: string, tarball: string): Promise<void> {
  const pkg = {
    name: 'fixture-ats',
    version: '1.0.0',
    private: true,
    dependencies: { 'hiring-integrations': `file:${tarball}`, express: '*', knex: '*', pg: '*' },
    devDependencies: { typescript: '*', '@types/node': '*', '@types/express': '*' },
  };
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  try {
    // Hard links: a copy of the repository's dependencies in a fraction of a second.
    await run('cp', ['-al', path.join(PACKAGE_ROOT, 'node_modules'), path.join(dir, 'node_modules')]);
  } catch {
    cpSync(path.join(PACKAGE_ROOT, 'node_modules'), path.join(dir, 'node_modules'), { recursive: true });
  }
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
  for (const file of readdirSync(FIXTURE)) cpSync(path.join(FIXTURE, file), path.join(dir, file));
}

describe('embedding: the packed package in a fixture ATS', function () {
  this.timeout(60_000);
  let dir: string;
  let packed: PackResult;
  let installed: string;

  before(async function () {
    this.timeout(180_000);
    dir = mkdtempSync(path.join(tmpdir(), 'hi-ats-'));
    packed = await pack(dir);
    await install(dir, path.join(dir, packed.filename));
    installed = path.join(dir, 'node_modules', 'hiring-integrations');
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  describe('the package', () => {
    it('npm pack --json ships what runs (compiled code, types, migrations, manifest, widget, invoice fonts, README, docs, LICENSE) and no sources, tests or benchmarks', () => {
      const files = packed.files.map((f) => f.path);
      for (const required of [
        'package.json',
        'README.md',
        'docs/README.md',
        'docs/embedding.md',
        'LICENSE',
        'plugin.manifest.json',
        'bin/hiring-integrations.js',
        'dist/src/index.js',
        'dist/src/index.d.ts',
        'dist/widgets/profile-apply.js',
        // The invoice PDF fonts and their licence (OFL).
        'assets/fonts/NotoSans-Regular-invoice.ttf',
        'assets/fonts/NotoSans-Bold-invoice.ttf',
        'assets/fonts/NotoSansCJKjp-Regular-invoice.otf',
        'assets/fonts/OFL.txt',
      ]) {
        assert.ok(files.includes(required), required);
      }
      assert.ok(files.some((f) => /^dist\/migrations\/\d+_organizations\.js$/.test(f)));
      const stray = files.filter(
        (f) =>
          /^(test|bench|src|jobs|migrations|dist\/test|dist\/bench|docker)\//.test(f) ||
          (f.endsWith('.ts') && !f.endsWith('.d.ts')) ||
          (f.endsWith('.map') && !f.startsWith('dist/widgets/')),
      );
      assert.deepEqual(stray, []);
      assert.ok(!files.some((f) => /^dist\/migrations\/.*\.d\.ts$/.test(f)), 'no migration declarations for knex to trip on');
    });

    it('is publishable: not private, Apache-2.0 with its LICENSE, an exports map with types, import and require', () => {
      const pkg = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8'));
      assert.equal(pkg.private, undefined);
      assert.equal(pkg.license, 'Apache-2.0');
      assert.match(readFileSync(path.join(installed, 'LICENSE'), 'utf8'), /Apache License\s+Version 2\.0/);
      const entry = pkg.exports['.'];
      for (const condition of ['types', 'import', 'require']) assert.ok(existsSync(path.join(installed, entry[condition])), condition);
    });

    it("the manifest's paths resolve inside the installed package", () => {
      const manifest = JSON.parse(readFileSync(path.join(installed, 'plugin.manifest.json'), 'utf8'));
      assert.ok(existsSync(path.join(installed, manifest.entry)), manifest.entry);
      assert.equal(require(path.join(installed, manifest.entry)).activate instanceof Function, true);
      for (const queue of manifest.queues) assert.ok(existsSync(path.join(installed, queue.processor)), queue.processor);
      const migrations = readdirSync(path.join(installed, manifest.migrations.directory));
      assert.ok(migrations.length > 0 && migrations.every((f: string) => manifest.migrations.loadExtensions.some((ext: string) => f.endsWith(ext))));
      assert.ok(existsSync(path.join(installed, manifest.widget.asset)), manifest.widget.asset);
      const standalone = manifest.config.filter((s: { standaloneOnly?: boolean }) => s.standaloneOnly).map((s: { env: string }) => s.env);
      assert.ok(standalone.includes('PORT') && standalone.includes('DATA_DIR'), standalone.join(','));
    });

    it('require and import give the public surface; paths into dist/ are refused', async () => {
      const probe = `const m = require('hiring-integrations'); console.log(JSON.stringify(Object.keys(m).sort()));`;
      const cjs = JSON.parse((await run(process.execPath, ['-e', probe], { cwd: dir })).stdout) as string[];
      for (const name of ['activate', 'defineConfig', 'migrate', 'HOST_CONTRACT_VERSION', 'ConfigError', 'isListingId']) assert.ok(cjs.includes(name), name);
      const esm = await run(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import { activate, defineConfig, migrate } from 'hiring-integrations'; console.log([activate, defineConfig, migrate].map((f) => typeof f).join())`,
        ],
        { cwd: dir },
      );
      assert.equal(esm.stdout.trim(), 'function,function,function');
      await assert.rejects(run(process.execPath, ['-e', `require('hiring-integrations/dist/src/plugin.js')`], { cwd: dir }), /ERR_PACKAGE_PATH_NOT_EXPORTED/);
      const manifest = await run(process.execPath, ['-e', `console.log(require('hiring-integrations/plugin.manifest.json').entry)`], { cwd: dir });
      assert.equal(manifest.stdout.trim(), 'dist/src/index.js', 'the manifest is readable through the exports map');
    });

    it('defineConfig stops on a missing or short SECRET_KEY, naming it, and writes nothing into the working directory', async () => {
      const probe = `const { defineConfig } = require('hiring-integrations');
        for (const secretKey of [undefined, 'abcd']) { try { defineConfig({ baseUrl: 'https://ats.example', secretKey }); console.log('accepted'); } catch (e) { console.log(e.env + ' ' + e.message); } }`;
      const { stdout } = await run(process.execPath, ['-e', probe], { cwd: dir });
      const lines = stdout.trim().split('\n');
      assert.equal(lines.length, 2);
      for (const line of lines) assert.match(line, /^SECRET_KEY /);
      assert.equal(existsSync(path.join(dir, '.data')), false);
    });

    it('a TypeScript host type-checks against its types (strict, skipLibCheck off; ESM and CommonJS resolution)', async function () {
      this.timeout(90_000);
      writeFileSync(
        path.join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            module: 'nodenext',
            moduleResolution: 'nodenext',
            target: 'es2022',
            noEmit: true,
            skipLibCheck: false,
            types: ['node'],
          },
          files: ['typed-host.mts', 'typed-worker.cts'],
        }),
      );
      const tsc = path.join(dir, 'node_modules', 'typescript', 'bin', 'tsc');
      const result = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: dir }).catch((error: { stdout: string }) => error);
      assert.equal(result.stdout.trim(), '', result.stdout);
    });
  });

  describe('a fixture ATS: its own tables and /healthz, UUID listings, mounted under /careers/hi, api and worker processes', () => {
    let database: TestDatabase;
    let db: Knex;
    let api: AppProcess;
    let worker: AppProcess;
    let atsUrl: string;
    let pluginUrl: string;
    let operatorKey: string;
    const pluginRequest = (method: string, urlPath: string, options: Parameters<typeof request>[3] = {}) => request(pluginUrl, method, urlPath, options);

    before(async function () {
      requireRedis(this);
      if (!usingPostgres()) skipBecause(this, 'needs DATABASE_URL: the host runs separate processes');
      this.timeout(60_000);
      database = await createTestDatabase();
      await database.db.destroy();
      db = knex({ client: 'pg', connection: database.url, pool: { min: 0, max: 2 } });
      const port = await freePort();
      atsUrl = `http://127.0.0.1:${port}`;
      pluginUrl = `${atsUrl}${MOUNT_PATH}`;
      const secrets = testSecrets();
      operatorKey = secrets.OPERATOR_API_KEY;
      const env = {
        ATS_DATABASE_URL: database.url,
        ATS_REDIS_URL: process.env.REDIS_URL,
        ATS_PUBLIC_URL: atsUrl,
        ATS_PORT: String(port),
        ATS_SECRET_KEY: secrets.SECRET_KEY,
        ATS_OPERATOR_KEY: secrets.OPERATOR_API_KEY,
        ATS_QUEUE_PREFIX: uniqueQueuePrefix(),
      };
      const migrate = startProcess('ats-migrate', ['node', path.join(dir, 'migrate.js')], env, { cwd: dir });
      const migrated = await migrate.exited;
      assert.equal(migrated.code, 0, migrate.output());
      api = startProcess('ats-api', ['node', path.join(dir, 'api.js')], env, { cwd: dir });
      worker = startProcess('ats-worker', ['node', path.join(dir, 'worker.js')], env, { cwd: dir });
      await waitForHttp(`${atsUrl}/healthz`, api);
      await worker.waitForLog((line) => line.msg === 'ats worker started');
    });
    after(async () => {
      await Promise.all([api?.stop('SIGKILL'), worker?.stop('SIGKILL')]);
      await db?.destroy();
      await database?.drop();
    });

    const ats = async (method: string, urlPath: string, body?: unknown) => request(atsUrl, method, `/ats${urlPath}`, body === undefined ? {} : { body });

    it("migrations add the plugin's hi_ tables beside the ATS's own, and no host_ tables", async () => {
      const { rows } = await db.raw(`select table_name from information_schema.tables where table_schema = current_schema() order by 1`);
      const tables = rows.map((r: { table_name: string }) => r.table_name) as string[];
      assert.ok(tables.includes('hi_knex_migrations') && tables.includes('ats_listings'), tables.join(','));
      assert.deepEqual(
        tables.filter((t) => !t.startsWith('hi_') && !t.startsWith('ats_')),
        [],
      );
    });

    it("keeps the ATS's own /healthz; the plugin's health is where the ATS mounted it, nothing at the root", async () => {
      assert.deepEqual((await request(atsUrl, 'GET', '/healthz')).body, { service: 'fixture-ats', status: 'ok' });
      for (const taken of ['/readyz', '/metrics', `${MOUNT_PATH}/healthz`, `${MOUNT_PATH}/metrics`, '/operator/jobs']) {
        assert.equal((await request(atsUrl, 'GET', taken)).status, 404, taken);
      }
      const ready = await request(atsUrl, 'GET', '/internal/hiring/readyz');
      assert.deepEqual(ready.body, { status: 'ready', checks: { database: 'ok', redis: 'ok' } });
      assert.equal((await request(atsUrl, 'GET', '/internal/hiring/metrics', { auth: operatorKey })).status, 200);
      const dashboard = await request(atsUrl, 'GET', '/internal/hiring/operator/jobs', { auth: operatorKey });
      assert.equal(dashboard.status, 200, dashboard.text.slice(0, 200));
      assert.equal((await request(atsUrl, 'GET', '/internal/hiring/operator/jobs')).status, 401);
      const openapi = await pluginRequest('GET', '/v1/openapi.json');
      assert.deepEqual(openapi.body.servers, [{ url: pluginUrl }]);
      const widget = await pluginRequest('GET', '/widgets/profile-apply.json');
      assert.equal(widget.body.api_base, pluginUrl);
      assert.ok(widget.body.url.startsWith(`${pluginUrl}/widgets/profile-apply.js`), widget.body.url);
      assert.ok((await pluginRequest('GET', '/widgets/profile-apply.js')).text.includes(JSON.stringify(pluginUrl)), 'the API base stamped into the script');
    });

    it('creates an organization from host code for a tenant, finds it by the tenant id, refuses a second one', async () => {
      const created = await ats('POST', '/tenants', { name: 'Globex' });
      assert.equal(created.status, 201, created.text);
      rememberSecret(created.body.api_key);
      const found = await ats('GET', `/tenants/${created.body.tenant_id}/organization`);
      assert.deepEqual(found.body, { organization_id: created.body.organization_id, external_id: created.body.tenant_id, name: 'Globex' });
      assert.deepEqual((await ats('POST', `/tenants/${created.body.tenant_id}/duplicate`)).body, { code: 'organization_exists' });
      const me = await pluginRequest('GET', '/v1/organization', { auth: created.body.api_key });
      assert.equal(me.body.id, created.body.organization_id);
    });

    it('a candidate applies through the connect flow; the worker delivers it with its imported profile to the ATS pipeline and application.submitted to its bus', async () => {
      const tenant = (await ats('POST', '/tenants', { name: 'Acme Careers' })).body;
      rememberSecret(tenant.api_key);
      const questions = [{ key: 'years_experience', label: 'Years of experience', type: 'number', required: true }];
      const { listing_id: listingId } = (await ats('POST', `/tenants/${tenant.tenant_id}/listings`, { title: 'Platform Engineer', questions })).body;
      assert.match(listingId, /^[0-9a-f]{8}-[0-9a-f]{4}-/);
      await enableProfileApply({ request: pluginRequest }, tenant.api_key, [atsUrl]);

      const listing = await pluginRequest('GET', `/v1/public/organizations/${tenant.organization_id}/listings/${listingId}`);
      assert.equal(listing.status, 200, listing.text);
      assert.equal(listing.body.id, listingId);

      const connect = await runConnect(
        { baseUrl: pluginUrl },
        { organizationId: tenant.organization_id, listingId, origin: atsUrl, button: `Authorize as ${ADA.name}` },
      );
      assert.match(connect.start.headers.get('set-cookie') ?? '', new RegExp(`Path=${MOUNT_PATH}/v1/connect`, 'i'));
      assert.ok(connect.authorizeUrl.toString().startsWith(`${pluginUrl}/sandbox/oauth/authorize`), connect.authorizeUrl.toString());
      assert.equal(connect.authorizeUrl.searchParams.get('redirect_uri'), `${pluginUrl}/v1/connect/profile/callback`);
      const message = connect.result?.message;
      assert.equal(message?.type, 'profile-apply:authorized', connect.callback?.text.slice(0, 500));
      assert.equal(message.listing_id, listingId);

      const applied = await pluginRequest('POST', `/v1/opportunities/listings/${listingId}/applications/profile`, {
        auth: message.candidate_token,
        body: { profile_user_id: ADA.id, answers: { years_experience: 9 } },
      });
      assert.equal(applied.status, 201, applied.text);

      const delivered = await waitFor(
        () => db('ats_applications').where({ application_id: applied.body.application_id }).first(),
        'delivery to the ATS pipeline',
      );
      assert.equal(delivered.listing_id, listingId);
      assert.equal(delivered.organization_id, tenant.organization_id);
      assert.deepEqual(delivered.skills, applied.body.imported_skills);
      assert.ok(delivered.skills.length > 0);
      assert.deepEqual(delivered.experience, applied.body.experience_summary);
      assert.deepEqual(delivered.answers, { years_experience: 9 });
      assert.ok(delivered.profile_url.startsWith(`${pluginUrl}/sandbox/profiles/`), delivered.profile_url);
      const event = await waitFor(
        () => db('ats_events').where({ name: 'application.submitted', organization_id: tenant.organization_id }).first(),
        'application.submitted on the bus',
      );
      assert.equal(event.process, 'worker', 'published where the job ran');
      assert.equal(event.payload.application_id, applied.body.application_id);
    });

    it('a hook emitted on the ATS bus runs the gated handler, once even when the ATS also fires it', async () => {
      const tenant = (await ats('POST', '/tenants', { name: 'Initech' })).body;
      rememberSecret(tenant.api_key);
      const activated = await pluginRequest('POST', '/v1/integrations/licenses/video_meetings.create_meeting_link/activate', { auth: tenant.api_key });
      assert.ok([200, 202].includes(activated.status), activated.text);
      await waitFor(
        async () =>
          (await pluginRequest('GET', '/v1/integrations/licenses?action_key=video_meetings.create_meeting_link', { auth: tenant.api_key })).body.data[0]
            ?.status === 'active',
        'the license',
      );
      const interview = (id: string) => ({
        interview_id: id,
        candidate: { name: 'Ada Lovelace', email: 'ada@example.com' },
        starts_at: new Date(Date.now() + 86_400_000).toISOString(),
      });

      const emitted = await ats('POST', `/tenants/${tenant.tenant_id}/interviews`, interview('int-bus'));
      assert.equal(emitted.status, 200, emitted.text);
      const both = await request(atsUrl, 'POST', `/ats/tenants/${tenant.tenant_id}/interviews?ask=yes`, { body: interview('int-both') });
      assert.ok(both.body.result.handled.includes('video-meeting-link'), JSON.stringify(both.body.result));

      const links = await db('ats_events').where({ name: 'interview.meeting_link_created', organization_id: tenant.organization_id });
      assert.deepEqual(links.map((e: { payload: { interview_id: string } }) => e.payload.interview_id).sort(), ['int-both', 'int-bus']);
    });

    it("docs/embedding.md's host runs as written: migrate, api and worker processes, /healthz of its own, the plugin under /careers/hi", async () => {
      const page = readFileSync(path.join(PACKAGE_ROOT, 'docs/embedding.md'), 'utf8');
      const section = page.slice(page.indexOf('## A complete host'));
      const code = /```js\n([\s\S]*?)\n```/.exec(section)?.[1];
      assert.ok(code, 'the section has a js block');
      writeFileSync(path.join(dir, 'host.js'), code);
      const own = await createTestDatabase();
      await own.db.destroy();
      const port = await freePort();
      const publicUrl = `http://127.0.0.1:${port}`;
      const env = {
        DATABASE_URL: own.url,
        REDIS_URL: process.env.REDIS_URL,
        SECRET_KEY: testSecrets().SECRET_KEY,
        PUBLIC_URL: publicUrl,
        PORT: String(port),
        QUEUE_PREFIX: uniqueQueuePrefix(),
      };
      const processes: AppProcess[] = [];
      try {
        const migrating = startProcess('readme-migrate', ['node', 'host.js', 'migrate'], env, { cwd: dir });
        assert.equal((await migrating.exited).code, 0, migrating.output());
        const web = startProcess('readme-api', ['node', 'host.js', 'api'], env, { cwd: dir });
        const jobs = startProcess('readme-worker', ['node', 'host.js', 'worker'], env, { cwd: dir });
        processes.push(web, jobs);
        await waitForHttp(`${publicUrl}/healthz`, web);
        await jobs.waitForLog((line) => line.msg === 'worker started');
        assert.equal((await request(publicUrl, 'GET', '/internal/hiring/readyz')).status, 200);
        const tenant = await request(publicUrl, 'POST', '/tenants', { body: { name: 'Readme Inc' } });
        assert.equal(tenant.status, 201, tenant.text);
        rememberSecret(tenant.body.api_key);
        const me = await request(publicUrl, 'GET', `${MOUNT_PATH}/v1/organization`, { auth: tenant.body.api_key });
        assert.equal(me.body.id, tenant.body.organization_id);
        const listing = await request(publicUrl, 'POST', `/tenants/${tenant.body.tenant_id}/listings`, { body: { title: 'Welder' } });
        assert.equal(listing.status, 201, listing.text);
        assert.equal((await request(publicUrl, 'POST', `/tenants/${tenant.body.tenant_id}/interviews`, { body: { interview_id: 'i-1' } })).status, 202);
        for (const proc of processes) assert.deepEqual(await proc.stop('SIGTERM', 15_000), { code: 0, signal: null }, proc.output().slice(-2000));
      } finally {
        await Promise.all(processes.map((p) => p.stop('SIGKILL')));
        await own.drop();
      }
    });

    it("the installed CLI's migrate creates the plugin's tables only, no host_ tables", async () => {
      const own = await createTestDatabase();
      await own.db.destroy();
      try {
        const cli = path.join(dir, 'node_modules', '.bin', 'hiring-integrations');
        const { stdout } = await run(cli, ['migrate'], {
          cwd: dir,
          env: { PATH: process.env.PATH, DATABASE_URL: own.url, SECRET_KEY: testSecrets().SECRET_KEY, LOG_LEVEL: 'warn' },
        });
        assert.match(stdout, /migrations applied/);
        const check = knex({ client: 'pg', connection: own.url, pool: { min: 0, max: 1 } });
        try {
          const { rows } = await check.raw(`select table_name from information_schema.tables where table_schema = current_schema()`);
          const tables = rows.map((r: { table_name: string }) => r.table_name) as string[];
          assert.ok(tables.includes('hi_organizations'), tables.join(','));
          assert.deepEqual(
            tables.filter((t) => !t.startsWith('hi_')),
            [],
          );
        } finally {
          await check.destroy();
        }
      } finally {
        await own.drop();
      }
      assert.equal(existsSync(path.join(dir, '.data')), false, 'nothing written into the working directory');
    });

    it('dispose() leaves nothing open: after SIGTERM both processes exit by themselves, and nothing was written into their working directory', async () => {
      const [apiExit, workerExit] = await Promise.all([api.stop('SIGTERM', 15_000), worker.stop('SIGTERM', 15_000)]);
      assert.deepEqual(apiExit, { code: 0, signal: null }, api.output().slice(-2000));
      assert.deepEqual(workerExit, { code: 0, signal: null }, worker.output().slice(-2000));
      assert.ok(api.logs().some((l) => l.msg === 'ats api stopped'));
      assert.equal(existsSync(path.join(dir, '.data')), false);
    });
  });
});
