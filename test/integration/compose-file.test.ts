/**
 * No Docker engine runs here, so docker/compose.yml and docker/Dockerfile are checked
 * statically: services, healthchecks, start order, that every setting the app services
 * receive is one the configuration schema (src/kernel/config) reads and together they pass production validation, and
 * that every command is a CLI command that exists. The API healthcheck command is run
 * for real against a real `serve` process.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, SETTINGS } from '../../src/kernel/config';
import { PACKAGE_ROOT } from '../../src/platform/manifest/manifest';
import {
  BIN,
  COMPOSE_FILE,
  containerArgv,
  DOCKERFILE,
  dockerEntrypoint,
  ENV_EXAMPLE,
  freePort,
  interpolate,
  InterpolationError,
  killAll,
  readCompose,
  readEnvExample,
  referencedVariables,
  runHealthcheck,
  serviceEnvironment,
  startProcess,
  testSecrets,
  waitForHttp,
  type ComposeFile,
} from '../helpers/processes';
import { testDir } from '../helpers/temp-dirs';

const APP_SERVICES = ['migrate', 'api', 'worker'];
const SETTING_NAMES = new Set<string>(SETTINGS.map((s) => s.env));

describe('docker compose file and Dockerfile', function () {
  this.timeout(60_000);
  let compose: ComposeFile;
  before(() => {
    compose = readCompose();
  });
  after(() => killAll());

  it('has postgres, redis, a one-shot migrate, api and worker', () => {
    assert.deepEqual(Object.keys(compose.services).sort(), ['api', 'migrate', 'postgres', 'redis', 'worker']);
    assert.equal(compose.services.migrate!.restart, 'no', 'migrate runs once');
    for (const name of APP_SERVICES) {
      assert.ok(compose.services[name]!.build, `${name} builds the image`);
      assert.match(compose.services[name]!.image ?? '', /^hiring-integrations:/);
    }
  });

  it('gives every long-running service a healthcheck in exec form, without curl', () => {
    for (const name of ['postgres', 'redis', 'api', 'worker']) {
      const test = compose.services[name]!.healthcheck?.test;
      assert.ok(Array.isArray(test) && test[0] === 'CMD', `${name} has an exec-form healthcheck`);
      assert.ok(!test.some((part) => /\bcurl\b|\bwget\b/.test(part)), `${name} healthcheck uses no curl/wget`);
    }
    assert.deepEqual(compose.services.postgres!.healthcheck!.test!.slice(0, 2), ['CMD', 'pg_isready']);
    assert.deepEqual(compose.services.redis!.healthcheck!.test, ['CMD', 'redis-cli', 'ping']);
    for (const name of ['api', 'worker']) assert.equal(compose.services[name]!.healthcheck!.test![1], 'node', `${name} checks itself with node`);
    assert.equal(compose.services.migrate!.healthcheck?.disable, true, 'a one-shot has no healthcheck');
  });

  it('starts in order: postgres healthy → migrate succeeded → api and worker, with redis healthy', () => {
    assert.deepEqual(compose.services.migrate!.depends_on, { postgres: { condition: 'service_healthy' } });
    for (const name of ['api', 'worker']) {
      assert.deepEqual(compose.services[name]!.depends_on, {
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
        migrate: { condition: 'service_completed_successfully' },
      });
    }
  });

  it('sets only settings the app reads, on every app service', () => {
    for (const name of APP_SERVICES) {
      const unknown = Object.keys(compose.services[name]!.environment ?? {}).filter((key) => !SETTING_NAMES.has(key));
      assert.deepEqual(unknown, [], `${name} sets environment names the configuration schema does not declare`);
    }
  });

  it('refuses to start without the secrets, and with them passes production validation', () => {
    const example = readEnvExample();
    for (const name of APP_SERVICES) {
      assert.throws(() => serviceEnvironment(compose.services[name]!, example), InterpolationError, `${name} must not start without its secrets`);
      const env = serviceEnvironment(compose.services[name]!, { ...example, ...testSecrets() });
      assert.equal(env.NODE_ENV, 'production');
      let config;
      try {
        config = loadConfig(env);
      } catch (error) {
        assert.fail(`${name}: ${error instanceof ConfigError ? error.message : String(error)}`);
      }
      assert.ok(config.databaseUrl?.startsWith('postgres://'), `${name} uses PostgreSQL`);
      assert.equal(config.redisUrl, 'redis://redis:6379', `${name} uses Redis`);
      assert.ok(config.operatorApiKey, `${name} has the operator key`);
      assert.equal(config.queuePrefix, '{hiring-integrations}', 'the queue prefix keeps its hash tag');
    }
    // Production requires these; each app service must set them (not rely on defaults).
    for (const required of ['NODE_ENV', 'DATABASE_URL', 'SECRET_KEY', 'BASE_URL', 'REDIS_URL', 'OPERATOR_API_KEY']) {
      for (const name of APP_SERVICES) assert.ok(required in compose.services[name]!.environment!, `${name} sets ${required}`);
    }
    assert.equal(serviceEnvironment(compose.services.worker!, { ...example, ...testSecrets() }).WORKER_HTTP_PORT, '3001');
    // The worker's profile imports call the sandbox on the api service, not at BASE_URL (localhost is the worker itself).
    const worker = loadConfig(serviceEnvironment(compose.services.worker!, { ...example, ...testSecrets() }));
    assert.equal(new URL(worker.sandboxInternalUrl).hostname, 'api');
    assert.equal(new URL(worker.sandboxInternalUrl).port, String(loadConfig(serviceEnvironment(compose.services.api!, { ...example, ...testSecrets() })).port));
  });

  it('documents in .env.example every variable the compose file refers to, and nothing else', () => {
    const referenced = referencedVariables(readFileSync(COMPOSE_FILE, 'utf8').replace(/^\s*#.*$/gm, ''));
    const documented = new Set(Object.keys(readEnvExample()));
    assert.deepEqual([...referenced].filter((v) => !documented.has(v)).sort(), [], 'referenced but not in docker/.env.example');
    assert.deepEqual([...documented].filter((v) => !referenced.has(v)).sort(), [], 'in docker/.env.example but unused');
    // Each variable (or a run of related ones) has a comment above it.
    const lines = readFileSync(ENV_EXAMPLE, 'utf8')
      .split('\n')
      .map((l) => l.trim());
    for (const name of documented) {
      let j = lines.findIndex((l) => l.startsWith(`${name}=`)) - 1;
      while (j >= 0 && /^[A-Z][A-Z0-9_]*=/.test(lines[j]!)) j--;
      assert.ok(j >= 0 && lines[j]!.startsWith('#'), `${name} is documented by a comment`);
    }
  });

  it('runs only CLI commands that exist', () => {
    const usage = spawnSync(process.execPath, [BIN, '--help'], { encoding: 'utf8', env: { PATH: process.env.PATH } });
    assert.equal(usage.status, 0, usage.stderr);
    const commands = new Set([...usage.stdout.matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1]));
    assert.deepEqual(dockerEntrypoint(), ['node', 'bin/hiring-integrations.js']);
    const expected: Record<string, string> = { migrate: 'migrate', api: 'serve', worker: 'worker' };
    for (const name of APP_SERVICES) {
      const argv = containerArgv(name);
      assert.equal(argv[2], expected[name], `${name} runs ${expected[name]}`);
      assert.ok(commands.has(argv[2]!), `"${argv[2]}" is a CLI command`);
    }
  });

  it('has a multi-stage Dockerfile: production dependencies only, non-root, node healthcheck', () => {
    const text = readFileSync(DOCKERFILE, 'utf8')
      .replace(/^\s*#.*\n/gm, '')
      .replace(/\\\n\s*/g, ' '); // no comments; continued lines joined
    const stages = text.split(/^FROM\s/m).slice(1);
    assert.ok(stages.length >= 2, 'multi-stage');
    const [build, runtime] = [stages[0]!, stages[stages.length - 1]!];
    assert.match(build, /npm ci\b(?!.*--omit=dev)/, 'the build stage installs dev dependencies');
    assert.match(build, /npm run build/);
    assert.match(runtime, /npm ci --omit=dev/, 'the runtime stage installs production dependencies only');
    assert.match(runtime, /COPY --from=build \/app\/dist/);
    assert.match(runtime, /^USER (?!root\b|0\b)\S+/m, 'runs as a non-root user');
    assert.match(runtime, /^HEALTHCHECK .*CMD \["node", "-e", ".*\/healthz/m, 'healthcheck with node');
    assert.doesNotMatch(text, /\bcurl\b|\bwget\b/);
    assert.match(runtime, /^ENV NODE_ENV=production/m);
    // Everything the runtime needs is copied: the compiled code, the CLI and the manifest.
    for (const needed of ['bin', 'plugin.manifest.json']) assert.match(runtime, new RegExp(`^COPY ${needed.replace('.', '\\.')}\\b`, 'm'));
    // Every file the build script names is copied into the build stage before it runs.
    const buildScript: string = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')).scripts.build;
    const copied = [...build.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1]!.split(/\s+/));
    for (const file of buildScript.match(/[\w./-]+\.(?:js|json)\b/g) ?? []) {
      assert.ok(
        copied.some((c) => file === c || file.startsWith(`${c.replace(/\/$/, '')}/`)),
        `${file} (used by npm run build) is copied into the build stage`,
      );
    }
    const ignore = readFileSync(path.join(PACKAGE_ROOT, 'docker/Dockerfile.dockerignore'), 'utf8');
    for (const excluded of ['node_modules', 'docker/.env', '.git']) assert.ok(ignore.includes(excluded), `${excluded} stays out of the build context`);
  });

  it('compose interpolation: defaults, required values and literal dollars', () => {
    assert.equal(interpolate('a${X:-b}c', {}), 'abc');
    assert.equal(interpolate('a${X:-b}c', { X: '' }), 'abc');
    assert.equal(interpolate('a${X-b}c', { X: '' }), 'ac');
    assert.equal(interpolate('$$X ${X}', { X: 'y' }), '$X y');
    assert.throws(() => interpolate('${X:?needed}', { X: '' }), /X: needed/);
  });

  it("the API container's healthcheck passes against a real `serve`, and fails when nothing listens", async () => {
    const port = await freePort();
    const dataDir = testDir('compose');
    // Embedded mode: the same command the api container runs, on PGlite, no Redis.
    const api = startProcess('api', containerArgv('api'), {
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    });
    // A first start creates the embedded database (half a minute on a loaded machine).
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, api, 50_000);
    const test = compose.services.api!.healthcheck!.test!;
    assert.equal(runHealthcheck(test, { PORT: String(port) }), true);
    assert.equal((await api.stop('SIGTERM')).code, 0);
    assert.equal(runHealthcheck(test, { PORT: String(port) }), false);
  });
});
