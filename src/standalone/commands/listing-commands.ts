/**
 * `listing create|get|list|update|close|reopen|upsert`: listings of the standalone host (an
 * ATS embedding the plugin has its own). The work is done by the parser-agnostic functions
 * of ../listing-commands; this module only declares the commands.
 */
import type { Command } from 'commander';
import { UsageError } from '../args';
import * as listing from '../listing-commands';
import { operatorServices } from '../operator-services';
import type { ListingsStore } from '../listings-store';
import { group, type CliContext, type CommandModule } from './context';

export const QUESTIONS_HELP = `
--questions is a JSON array (at most 50, unique keys); each question is
  {"key": "snake_case_id", "label": "Shown to the candidate", "type": "number" | "boolean" | "text" | "select",
   "required": true | false, "options": ["…"]}
  key: lower snake case, up to 64 characters; required defaults to false;
  options: 1-100 strings, given for "select" questions and only for them.

Example:
  $ hiring-integrations listing create --org org_5fGh7JkL9mNp2QrS4tUv --title "Senior Backend Engineer" --json \\
      --questions '[{"key":"years_experience","label":"Years of experience","type":"number","required":true},
                    {"key":"start","label":"When could you start?","type":"select","required":false,"options":["Now","Later"]}]'
  {"listing_id":"listing_…"}`;

const FIELD_OPTIONS: [string, string][] = [
  ['--description <text>', 'a description shown with the listing'],
  ['--location <text>', 'where the job is'],
  ['--status <status>', 'open or closed'],
  ['--external-id <id>', "the ATS's own id of the listing (unique per organization)"],
];

type Options = Record<string, string | boolean | undefined> & { org: string; json?: boolean };

/** Opens the database, checks the organization, runs one listing command, prints its result. */
function runner(context: CliContext) {
  return (run: (listings: ListingsStore, options: Options) => Promise<listing.CommandResult>) => async (options: Options) => {
    await context.withDatabase(async (db) => {
      const services = operatorServices(db, context.config());
      await services.organizations.get(options.org);
      const result = await run(services.listings, options);
      context.print(options, result.text, result.value);
    });
  };
}

function withFields(command: Command): Command {
  for (const [flags, description] of FIELD_OPTIONS) command.option(flags, description);
  return command.option('--questions <json>', 'screening questions as a JSON array (see listing create --help)');
}

const fields = (o: Options): listing.ListingOptions => ({
  org: o.org,
  title: o.title as string | undefined,
  questions: o.questions as string | undefined,
  description: o.description as string | undefined,
  location: o.location as string | undefined,
  status: o.status as string | undefined,
  externalId: o.externalId as string | undefined,
});

export const listingCommands: CommandModule = {
  register(program, context) {
    const listings = group(program, 'listing', 'Listings of the standalone host');
    const run = runner(context);
    const org = (command: Command) => command.requiredOption('--org <org_id>', 'the organization (org_…)').option('--json', 'print the result as JSON');

    withFields(org(listings.command('create').description('Create a listing (open unless --status closed) with screening questions')))
      .requiredOption('--title <title>', "the listing's title")
      .addHelpText('after', QUESTIONS_HELP)
      .action(run((store, o) => listing.createListing(store, fields(o))));

    org(listings.command('get').description('Show one listing'))
      .requiredOption('--id <listing_id>', 'the listing')
      .addHelpText('after', '\nExample:\n  $ hiring-integrations listing get --org org_… --id listing_… --json')
      .action(run((store, o) => listing.getListing(store, { org: o.org, id: o.id as string })));

    org(listings.command('list').description('List listings, newest first'))
      .option('--status <status>', 'only open or only closed listings')
      .option('--external-id <id>', 'the listing with this ATS id')
      .option('--limit <n>', '1-100 (default 100)')
      .option('--starting-after <listing_id>', 'the next page after this listing')
      .addHelpText('after', '\nExample:\n  $ hiring-integrations listing list --org org_… --status open --json')
      .action(
        run((store, o) =>
          listing.listListings(store, {
            org: o.org,
            status: o.status as string | undefined,
            externalId: o.externalId as string | undefined,
            limit: o.limit as string | undefined,
            startingAfter: o.startingAfter as string | undefined,
          }),
        ),
      );

    withFields(org(listings.command('update').description('Change a listing; submitted applications keep the questions they answered')))
      .requiredOption('--id <listing_id>', 'the listing')
      .option('--title <title>', "the listing's title")
      .addHelpText('after', '\nExample:\n  $ hiring-integrations listing update --org org_… --id listing_… --title "Staff Engineer"')
      .action(run((store, o) => listing.updateListing(store, { ...fields(o), id: o.id as string })));

    for (const [name, status, text] of [
      ['close', 'closed', 'Close a listing: it refuses applications (410)'],
      ['reopen', 'open', 'Reopen a closed listing'],
    ] as const) {
      org(listings.command(name).description(text))
        .requiredOption('--id <listing_id>', 'the listing')
        .addHelpText('after', `\nExample:\n  $ hiring-integrations listing ${name} --org org_… --id listing_…`)
        .action(run((store, o) => listing.setListingStatus(store, { org: o.org, id: o.id as string }, status)));
    }

    withFields(org(listings.command('upsert').description('Create or replace the listing the ATS knows by its own id (idempotent)')))
      .requiredOption('--title <title>', "the listing's title")
      .addHelpText('after', '\nExample:\n  $ hiring-integrations listing upsert --org org_… --external-id job-42 --title "Backend Engineer" --json')
      .action(
        run((store, o) => {
          if (typeof o.externalId !== 'string') throw new UsageError("--external-id is required: it is the ATS's id the listing is found by");
          return listing.upsertListing(store, { ...fields(o), externalId: o.externalId });
        }),
      );
  },
};
