/** `catalog sync`: load a catalog document (operators extend the catalog without code). */
import { group, type CommandModule } from './context';

export const catalogCommands: CommandModule = {
  register(program, context) {
    group(program, 'catalog', 'The integration action catalog')
      .command('sync')
      .description('Load a catalog document (default: the shipped catalog.v1.json); upserts groups and actions, creates new packages, removes nothing')
      .option('--file <file>', 'a catalog document in the format of src/features/licensing/catalog.v1.json, with a higher version')
      .option('--json', 'print {"version","groups","actions","packages_created"}')
      .addHelpText('after', '\nExample:\n  $ hiring-integrations catalog sync --file my-catalog.json --json')
      .action(async (options: { file?: string; json?: boolean }) => {
        await context.withDatabase(async (db) => {
          const result = await (await import('./catalog-sync')).catalogSync(db, options.file);
          context.print(
            options,
            `catalog version ${result.version} synced: ${result.groups} groups, ${result.actions} actions, new packages: ${result.packagesCreated.join(', ') || 'none'}`,
            { version: result.version, groups: result.groups, actions: result.actions, packages_created: result.packagesCreated },
          );
        });
      });
  },
};
