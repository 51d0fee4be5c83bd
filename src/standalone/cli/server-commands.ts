/** `serve`, `worker` and `migrate`: the process roles and the schema. */
import { InvalidArgumentError, Option } from 'commander';
import type { CommandModule } from './context';
import { startProgress } from './start-progress';

export function portNumber(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) throw new InvalidArgumentError('must be a port number (0-65535)');
  return Number(value);
}

export const serverCommands: CommandModule = {
  register(program, context) {
    program
      .command('serve')
      .description('Start the API. Jobs run in this process too, unless REDIS_URL is set and --no-worker is given')
      .option('--port <n>', 'listen on this port instead of PORT', portNumber)
      .addOption(new Option('--worker', 'run the job workers in this process (the default; kept for scripts)').hideHelp())
      .option('--no-worker', 'with REDIS_URL: only enqueue; run `hiring-integrations worker` separately')
      .option('--demo', 'create and print the demo organization even on PostgreSQL (always on in embedded mode, never in production)')
      .addHelpText(
        'after',
        '\nExamples:\n  $ hiring-integrations serve\n  $ hiring-integrations serve --port 8080\n  $ REDIS_URL=redis://localhost:6379 hiring-integrations serve --no-worker',
      )
      .action(async (options: { port?: number; worker: boolean; demo?: boolean }) => {
        process.stderr.write(startProgress(context.config()));
        const { serve } = await import('../host/server');
        await serve({ port: options.port, runWorkers: options.worker, demo: options.demo });
      });
    program
      .command('worker')
      .description('Run the BullMQ workers of every queue in the manifest (needs REDIS_URL)')
      .addHelpText('after', '\nExample (REDIS_URL and DATABASE_URL set, or in ./.env):\n  $ hiring-integrations worker')
      .action(async () => {
        context.config();
        const { worker } = await import('../host/server');
        await worker();
      });
    program
      .command('migrate')
      .description("Apply the plugin's database migrations (hi_ tables; the standalone host creates its own host_ tables as it starts)")
      .option('--json', 'print {"migrated":true}')
      .addHelpText('after', '\nExamples:\n  $ hiring-integrations migrate\n  $ DATABASE_URL=postgres://localhost/hiring hiring-integrations migrate --json')
      .action(async (options: { json?: boolean }) => {
        await context.withDatabase(
          async (_db, applied) =>
            context.print(options, applied > 0 ? `${applied} migrations applied` : 'migrations applied (the schema was up to date)', {
              migrated: true,
              applied,
            }),
          // The plugin's tables only: an ATS migrating its own database gets no host_* tables.
          { hostTables: false },
        );
      });
  },
};
