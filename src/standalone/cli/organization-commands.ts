/** `org create`, `key rotate`, `key revoke`: tenants and their API keys. */
import type { Config } from '../../kernel/config';
import { group, type CliContext, type CommandModule } from './context';

type OrganizationService = Awaited<ReturnType<typeof import('./operator-services').operatorServices>>['organizations'];

/** Runs `act` with the organization service on the command's database; loaded when a command runs, not for --help (repositories, knex, ioredis). */
function withOrganizations<T>(context: CliContext, act: (organizations: OrganizationService) => Promise<T>): Promise<T> {
  return context.withDatabase(async (db) => act((await (await import('./operator-services')).operatorServices(db, context.config())).organizations));
}

/** Running API processes drop a changed key from their caches within a second; say so when Redis could not tell them. */
async function announceKeyChange(config: Config, organizationId: string): Promise<void> {
  const [{ announceCacheChange }, { API_KEYS_CACHE }] = await Promise.all([
    import('../../platform/caching/announce-change'),
    import('../../features/organizations/storage/cached-api-keys'),
  ]);
  if (!(await announceCacheChange(config, API_KEYS_CACHE, organizationId))) {
    process.stderr.write(
      `warning: Redis did not take the cache invalidation; running API processes notice the change within ${config.entitlementCacheTtlSeconds} s\n`,
    );
  }
}

export const organizationCommands: CommandModule = {
  register(program, context) {
    group(program, 'org', 'Organizations')
      .command('create')
      .description('Create an organization and its first API key (shown once)')
      .requiredOption('--name <name>', "the organization's name")
      .option('--json', 'print {"organization_id","api_key"}')
      .addHelpText('after', '\nExample:\n  $ hiring-integrations org create --name "Acme Hiring" --json\n  {"organization_id":"org_…","api_key":"hik_…"}')
      .action(async (options: { name: string; json?: boolean }) => {
        await withOrganizations(context, async (organizations) => {
          const { organization, key } = await organizations.create(options.name);
          context.print(options, `organization ${organization.id} created\nAPI key (shown once, store it now): ${key.apiKey}`, {
            organization_id: organization.id,
            api_key: key.apiKey,
          });
        });
      });

    const key = group(program, 'key', 'API keys');
    key
      .command('rotate')
      .description('Issue a new API key; older keys keep working for API_KEY_ROTATION_GRACE_SECONDS')
      .requiredOption('--org <org_id>', 'the organization (org_…)')
      .option('--json', 'print {"organization_id","api_key","previous_keys_expire_at"}')
      .addHelpText('after', '\nExample:\n  $ hiring-integrations key rotate --org org_5fGh7JkL9mNp2QrS4tUv --json')
      .action(async (options: { org: string; json?: boolean }) => {
        await withOrganizations(context, async (organizations) => {
          const issued = await organizations.rotateKey(options.org);
          await announceKeyChange(context.config(), options.org);
          const expires = issued.previousKeysExpireAt!.toISOString();
          context.print(options, `new API key for ${options.org} (shown once): ${issued.apiKey}\nprevious keys keep working until ${expires}`, {
            organization_id: options.org,
            api_key: issued.apiKey,
            previous_keys_expire_at: expires,
          });
        });
      });
    key
      .command('revoke')
      .description('Revoke an API key at once (give the key or its hik_… prefix)')
      .requiredOption('--key <key_or_prefix>', 'the key, or its prefix hik_<12 characters>')
      .option('--json', 'print {"prefix","revoked":true}')
      .addHelpText('after', '\nExample:\n  $ hiring-integrations key revoke --key hik_…')
      .action(async (options: { key: string; json?: boolean }) => {
        await withOrganizations(context, async (organizations) => {
          const revoked = await organizations.revokeKey(options.key);
          await announceKeyChange(context.config(), revoked.organizationId);
          context.print(options, `API key ${revoked.prefix} revoked`, { prefix: revoked.prefix, revoked: true });
        });
      });
  },
};
