/**
 * The operator CLI: `hiring-integrations <command>`. Bad arguments print a one-line
 * message and usage, and exit 2; failures exit 1; never a stack trace.
 */
import 'reflect-metadata';
import { loadConfig, ConfigError, type Config } from '../config';
import { isDomainError } from '../domain/shared/errors';
import { createDatabase, type Database } from '../storage/database';
import { allowOnly, parseArgs, required, UsageError, type ParsedArgs } from './args';
import { embeddedServerPid } from './embedded-lock';
import { operatorServices } from './operator-services';
import { migrateAll } from './standalone-host';

const USAGE = `Usage: hiring-integrations <command> [options]

Commands:
  serve [--port N] [--worker]           Start the API (and, with --worker or without Redis, the job workers)
  worker                                Run the BullMQ workers of every queue (needs REDIS_URL)
  migrate                               Apply database migrations
  org create --name NAME [--json]       Create an organization; prints its id and API key (shown once)
  key rotate --org ORG_ID [--json]      Issue a new API key; older keys keep working for the grace period
  key revoke --key KEY_OR_PREFIX        Revoke an API key at once
  listing create --org ORG_ID --title TITLE --questions JSON [--json]
                                        Create a listing in the standalone host
  catalog sync [--file FILE] [--json]   Load a catalog document (default: the shipped catalog.v1.json)
  invoices list [--org ORG_ID] [--status S] [--json]
  invoices mark-paid|void|retry|mark-uncollectible --invoice INV_ID [--reference R] [--json]
  invoices payment-failed --invoice INV_ID --reason R [--json]
  billing clock set --org ORG_ID --time ISO | billing clock advance --org ORG_ID --to ISO
                                        Billing through the running service's operator API (BASE_URL, OPERATOR_API_KEY)

Configuration comes from the environment; see README.md.`;

type Output = { json: boolean; write(text: string, value: object): void };

async function withDatabase<T>(config: Config, run: (db: Database) => Promise<T>): Promise<T> {
  if (!config.databaseUrl) {
    const pid = embeddedServerPid(config.dataDir);
    if (pid) throw new UsageError(`the embedded server (pid ${pid}) holds ${config.dataDir}; stop it first, or use the HTTP API`);
  }
  const db = createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 2 });
  try {
    await migrateAll(db);
    return await run(db);
  } finally {
    await db.destroy();
  }
}

async function runBilling(args: ParsedArgs, config: Config, out: Output): Promise<void> {
  const billing = await import('./billing-commands');
  const api = { baseUrl: config.baseUrl, operatorKey: config.operatorApiKey };
  const [command, sub, third] = args.words;
  let result: { text: string; value: object };
  if (command === 'invoices' && sub === 'list') {
    allowOnly(args, ['org', 'status', 'json']);
    const option = (name: string) => (typeof args.options.get(name) === 'string' ? (args.options.get(name) as string) : undefined);
    result = await billing.listInvoices(api, { organizationId: option('org'), status: option('status') });
  } else if (command === 'invoices' && sub && billing.INVOICE_ACTIONS[sub]) {
    allowOnly(args, ['invoice', 'reference', 'reason', 'json']);
    const reference = args.options.get('reference');
    const reason = args.options.get('reason');
    result = await billing.changeInvoice(api, required(args, 'invoice'), billing.INVOICE_ACTIONS[sub]!, {
      reference: typeof reference === 'string' ? reference : undefined,
      reason: typeof reason === 'string' ? reason : undefined,
    });
  } else if (command === 'billing' && sub === 'clock' && third === 'set') {
    allowOnly(args, ['org', 'time', 'json']);
    result = await billing.setTestClock(api, required(args, 'org'), required(args, 'time'));
  } else if (command === 'billing' && sub === 'clock' && third === 'advance') {
    allowOnly(args, ['org', 'to', 'json']);
    result = await billing.advanceTestClock(api, required(args, 'org'), required(args, 'to'));
  } else {
    throw new UsageError(`unknown command "${args.words.join(' ')}"`);
  }
  out.write(result.text, result.value);
}

async function run(argv: string[], out: Output): Promise<void> {
  const args: ParsedArgs = parseArgs(argv);
  const [command, sub] = args.words;
  if (!command || args.options.has('help') || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const config = loadConfig();
  if (command === 'invoices' || command === 'billing') return runBilling(args, config, out);
  switch (`${command}${sub ? ` ${sub}` : ''}`) {
    case 'serve': {
      allowOnly(args, ['port', 'worker']);
      const port = args.options.get('port');
      if (port !== undefined && !/^\d{1,5}$/.test(String(port))) throw new UsageError('--port must be a number');
      const { serve } = await import('./server');
      return serve({ port: port === undefined ? undefined : Number(port), runWorkers: args.options.has('worker') });
    }
    case 'worker': {
      allowOnly(args, []);
      const { worker } = await import('./server');
      return worker();
    }
    case 'migrate':
      allowOnly(args, []);
      return withDatabase(config, async () => out.write('migrations applied', { migrated: true }));
    case 'org create': {
      allowOnly(args, ['name', 'json']);
      const name = required(args, 'name');
      return withDatabase(config, async (db) => {
        const { organization, key } = await operatorServices(db, config).organizations.create(name);
        out.write(
          `organization ${organization.id} created\nAPI key (shown once, store it now): ${key.apiKey}`,
          { organization_id: organization.id, api_key: key.apiKey },
        );
      });
    }
    case 'key rotate': {
      allowOnly(args, ['org', 'json']);
      const org = required(args, 'org');
      return withDatabase(config, async (db) => {
        const issued = await operatorServices(db, config).organizations.rotateKey(org);
        out.write(
          `new API key for ${org} (shown once): ${issued.apiKey}\nprevious keys keep working until ${issued.previousKeysExpireAt!.toISOString()}`,
          { organization_id: org, api_key: issued.apiKey, previous_keys_expire_at: issued.previousKeysExpireAt!.toISOString() },
        );
      });
    }
    case 'key revoke': {
      allowOnly(args, ['key', 'json']);
      const key = required(args, 'key');
      return withDatabase(config, async (db) => {
        const revoked = await operatorServices(db, config).organizations.revokeKey(key);
        out.write(`API key ${revoked.prefix} revoked`, { prefix: revoked.prefix, revoked: true });
      });
    }
    case 'listing create': {
      allowOnly(args, ['org', 'title', 'questions', 'json', 'status']);
      const org = required(args, 'org');
      const title = required(args, 'title');
      let questions: unknown = [];
      const raw = args.options.get('questions');
      if (typeof raw === 'string') {
        try {
          questions = JSON.parse(raw);
        } catch {
          throw new UsageError('--questions must be a JSON array');
        }
      }
      return withDatabase(config, async (db) => {
        const services = operatorServices(db, config);
        await services.organizations.get(org);
        const parsed = (await import('./listings-store')).questionsSchema.safeParse(questions);
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          throw new UsageError(`--questions: ${issue.path.join('.') || 'value'}: ${issue.message}`);
        }
        const listing = await services.listings.create({ organizationId: org, title, questions: parsed.data });
        out.write(`listing ${listing.id} created`, { listing_id: listing.id });
      });
    }
    case 'catalog sync': {
      allowOnly(args, ['file', 'json']);
      const file = args.options.get('file');
      if (file === true) throw new UsageError('--file needs a value');
      return withDatabase(config, async (db) => {
        const result = await (await import('./catalog-sync-command')).catalogSync(db, file);
        out.write(
          `catalog version ${result.version} synced: ${result.groups} groups, ${result.actions} actions, new packages: ${result.packagesCreated.join(', ') || 'none'}`,
          { version: result.version, groups: result.groups, actions: result.actions, packages_created: result.packagesCreated },
        );
      });
    }
    default:
      throw new UsageError(`unknown command "${argv.filter((a) => !a.startsWith('--')).slice(0, 2).join(' ')}"`);
  }
}

function output(argv: string[]): Output {
  const json = argv.includes('--json');
  return { json, write: (text, value) => process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`) };
}

export async function main(argv = process.argv.slice(2)): Promise<void> {
  try {
    await run(argv, output(argv));
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`error: ${error.message}\n\n${USAGE}\n`);
      process.exitCode = 2;
    } else if (error instanceof ConfigError) {
      process.stderr.write(`configuration error: ${error.message}\n`);
      process.exitCode = 2;
    } else if (isDomainError(error)) {
      process.stderr.write(`error: ${error.message} (${error.code})\n`);
      process.exitCode = error.kind === 'invalid' ? 2 : 1;
    } else {
      process.stderr.write(`error: ${(error as Error).message}\n`);
      process.exitCode = 1;
    }
  }
}

if (require.main === module) void main();
