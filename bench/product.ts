/**
 * The product as the benchmarks see it: `hiring-integrations serve` (and, when a step
 * needs it, `hiring-integrations worker`) as separate processes on a fresh PostgreSQL
 * database and a queue prefix of their own, seeded with organizations, listings and
 * sandbox candidates authorized through the real connect flow.
 */
import { randomBytes } from 'node:crypto';
import { loadConfig, type Config } from '../src/kernel/config';
import { newId } from '../src/kernel/ids';
import { operatorServices } from '../src/standalone/cli/operator-services';
import { createDatabase, type Database } from '../src/platform/database/database';
import { ADA, ALAN, GRACE, KATHERINE, QUESTIONS, runConnect } from '../test/helpers/profile-flow';
import { request } from '../test/helpers/test-host';
import { createBenchDatabase } from './lib/database';
import { BIN, freePort, runCli, startNode, waitForHttp, type BenchProcess } from './lib/spawn';

export const CANDIDATES = [ADA, GRACE, ALAN, KATHERINE];
export const LISTING_ORIGIN = 'https://jobs.bench.example';
export const ANSWERS = { years_experience: 6, work_authorization: true };

export interface BenchOrganization {
  organizationId: string;
  apiKey: string;
  listingIds: string[];
}

export class Product {
  readonly env: Record<string, string>;
  readonly config: Config;
  readonly db: Database;
  api: BenchProcess | undefined;
  worker: BenchProcess | undefined;
  organizations: BenchOrganization[] = [];

  private constructor(
    readonly baseUrl: string,
    readonly port: number,
    readonly database: { url: string; drop(): Promise<void> },
    readonly redisUrl: string,
    readonly queuePrefix: string,
    /** Prefixes the processes' names (their log and profile files), so that two products can run side by side. */
    readonly label: string,
  ) {
    this.env = {
      NODE_ENV: 'production',
      SANDBOX_PROVIDER_ENABLED: 'true',
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: baseUrl,
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: queuePrefix,
      SECRET_KEY: randomBytes(32).toString('hex'),
      OPERATOR_API_KEY: `op_${randomBytes(24).toString('hex')}`,
      RATE_LIMIT_PER_MINUTE: '0',
      WORKER_HTTP_PORT: '0',
      LOG_LEVEL: 'info',
    };
    this.config = loadConfig(this.env);
    this.db = createDatabase({ databaseUrl: database.url, poolMax: 4 });
  }

  static async create(databaseServerUrl: string, redisUrl: string, label = ''): Promise<Product> {
    const database = await createBenchDatabase(databaseServerUrl);
    const port = await freePort();
    const product = new Product(`http://127.0.0.1:${port}`, port, database, redisUrl, `{hi-bench-${randomBytes(4).toString('hex')}}`, label);
    runCli(['migrate'], product.env);
    return product;
  }

  async startApi(execArgv: string[] = []): Promise<void> {
    // --no-worker: the API process only answers requests, as the baseline server does; jobs run
    // in the separate worker process (startWorker), so neither benchmark counts the other's work.
    this.api = startNode(`${this.label}api`, BIN, ['serve', '--no-worker'], this.env, execArgv);
    await waitForHttp(`${this.baseUrl}/readyz`, this.api);
  }

  async startWorker(extraEnv: Record<string, string> = {}, execArgv: string[] = []): Promise<void> {
    this.worker = startNode(`${this.label}worker`, BIN, ['worker'], { ...this.env, ...extraEnv }, execArgv);
    // The worker logs "worker started" once its BullMQ workers exist; its HTTP port is off.
    await new Promise<void>((resolve, reject) => {
      const started = Date.now();
      const poll = setInterval(() => {
        const log = require('node:fs').readFileSync(this.worker!.logFile, 'utf8') as string;
        if (log.includes('"worker started"')) {
          clearInterval(poll);
          resolve();
        } else if (Date.now() - started > 60_000 || this.worker!.child.exitCode !== null) {
          clearInterval(poll);
          reject(new Error(`worker did not start; see ${this.worker!.logFile}`));
        }
      }, 50);
    });
  }

  async stopWorker(): Promise<void> {
    await this.worker?.stop('SIGTERM');
    this.worker = undefined;
  }

  /** Organizations with profile apply enabled, `listingsEach` open listings each. */
  async seed(organizations: number, listingsEach: number): Promise<void> {
    const services = operatorServices(this.db, this.config);
    for (let i = 0; i < organizations; i++) {
      const { organization, key } = await services.organizations.create(`Bench Org ${i + 1}`);
      const enabled = await request(this.baseUrl, 'PATCH', '/v1/organization/settings', {
        auth: key.apiKey,
        body: { profile_apply: { enabled: true, allowed_origins: [LISTING_ORIGIN] } },
      });
      if (enabled.status !== 200) throw new Error(`enabling profile apply answered ${enabled.status}: ${enabled.text}`);
      // The license applications need (the apply gate checks it); the worker provisions it.
      const license = await request(this.baseUrl, 'POST', '/v1/integrations/licenses/profile.accept_application/activate', { auth: key.apiKey });
      if (license.status >= 300) throw new Error(`activating profile.accept_application answered ${license.status}: ${license.text}`);
      const first = await services.listings.create({ organizationId: organization.id, title: 'Benchmark Engineer', questions: QUESTIONS });
      // The rest in bulk: the same rows ListingsStore.create writes.
      const rows = Array.from({ length: listingsEach - 1 }, (_, n) => ({
        id: newId('listing'),
        organization_id: organization.id,
        title: `Benchmark Engineer ${n + 2}`,
        status: 'open',
        questions: JSON.stringify(first.questions),
      }));
      for (let start = 0; start < rows.length; start += 1000) await this.db('host_listings').insert(rows.slice(start, start + 1000));
      this.organizations.push({ organizationId: organization.id, apiKey: key.apiKey, listingIds: [first.id, ...rows.map((r) => r.id)] });
    }
  }

  /** Waits until every organization's licenses are active. */
  async waitForLicenses(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const pending = await this.db('hi_licenses').whereNot({ status: 'active' });
      if (pending.length === 0) return;
      if (Date.now() > deadline) throw new Error(`${pending.length} licenses not active after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Every sandbox candidate authorizes every organization once, through the real connect flow. */
  async connectCandidates(): Promise<void> {
    for (const org of this.organizations) {
      for (const candidate of CANDIDATES) {
        const run = await runConnect({ baseUrl: this.baseUrl } as never, {
          organizationId: org.organizationId,
          listingId: org.listingIds[0]!,
          origin: LISTING_ORIGIN,
          button: `Authorize as ${candidate.name}`,
        });
        if (run.result?.message.type !== 'profile-apply:authorized') throw new Error(`connect failed: ${JSON.stringify(run.result?.message)}`);
      }
    }
  }

  /** Waits until every authorization's import job has stored its snapshot. */
  async waitForSnapshots(timeoutMs = 60_000): Promise<void> {
    const expected = this.organizations.length * CANDIDATES.length;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [{ n }] = await this.db('hi_profile_snapshots').count<{ n: string }[]>('* as n');
      if (Number(n) >= expected) return;
      if (Date.now() > deadline) throw new Error(`only ${n} of ${expected} profile snapshots after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async close(): Promise<void> {
    await this.worker?.stop('SIGTERM');
    await this.api?.stop('SIGTERM');
    await this.db.destroy();
    await this.database.drop();
  }
}
