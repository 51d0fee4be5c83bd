/**
 * `listing create|get|list|update|close|reopen|upsert`: listings of the standalone host (an
 * ATS embedding the plugin has its own). Each command is one small function taking plain
 * options and answering `{ text, value }` (what to print, and the --json value), so tests
 * call them without a parser; `listingCommands` at the end declares them to commander.
 */
import type { ListingQuestion } from '../../features/listings/domain/listing';
import type { ListingFields } from '../../features/listings/domain/listing-management';
import { notFound } from '../../kernel/errors';
import type { listingView as ListingView } from '../../features/listings/http/listings-router';
import { UsageError } from './usage-error';
import type { ListingsStore } from '../host/listings-store';
import type { Command } from 'commander';

/*
 * Loaded when a listing command runs, not for --help: the listing view lives beside its
 * router (express) and the questions schema is zod. require() keeps the helpers synchronous.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const listingView: typeof ListingView = (listing) =>
  (require('../../features/listings/http/listings-router') as typeof import('../../features/listings/http/listings-router')).listingView(listing);
const questionsSchema = () =>
  (require('../../features/listings/domain/questions') as typeof import('../../features/listings/domain/questions')).questionsSchema;
const operatorServices: typeof import('./operator-services').operatorServices = (db, config) =>
  (require('./operator-services') as typeof import('./operator-services')).operatorServices(db, config);
/* eslint-enable @typescript-eslint/no-require-imports */
import { group, type CliContext, type CommandModule } from './context';

export interface CommandResult {
  text: string;
  value: object;
}

export interface ListingOptions {
  org: string;
  title?: string;
  questions?: string;
  description?: string;
  location?: string;
  status?: string;
  externalId?: string;
}

function questionsOf(raw: string | undefined): ListingQuestion[] | undefined {
  if (raw === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new UsageError('--questions must be a JSON array');
  }
  const parsed = questionsSchema().safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`--questions: ${issue.path.join('.') || 'value'}: ${issue.message}`);
  }
  return parsed.data as ListingQuestion[];
}

function statusOf(raw: string | undefined): 'open' | 'closed' | undefined {
  if (raw === undefined) return undefined;
  if (raw !== 'open' && raw !== 'closed') throw new UsageError('--status must be open or closed');
  return raw;
}

function fieldsOf(options: ListingOptions): Partial<ListingFields> {
  const fields: Partial<ListingFields> = {};
  if (options.title !== undefined) {
    if (!options.title.trim()) throw new UsageError('--title must not be empty');
    fields.title = options.title.trim();
  }
  const questions = questionsOf(options.questions);
  if (questions) fields.questions = questions;
  if (options.description !== undefined) fields.description = options.description;
  if (options.location !== undefined) fields.location = options.location;
  const status = statusOf(options.status);
  if (status) fields.status = status;
  return fields;
}

const shown = (verb: string, listing: Parameters<typeof listingView>[0]): CommandResult => ({
  text: `listing ${listing.id} ${verb} (${listing.status}${listing.externalId ? `, external id ${listing.externalId}` : ''}): ${listing.title}`,
  value: listingView(listing),
});

export async function createListing(listings: ListingsStore, options: ListingOptions): Promise<CommandResult> {
  const fields = fieldsOf(options);
  if (!fields.title) throw new UsageError('--title is required');
  const listing = await listings.create(options.org, {
    ...fields,
    title: fields.title,
    questions: fields.questions ?? [],
    externalId: options.externalId ?? null,
  });
  return { text: `listing ${listing.id} created`, value: { listing_id: listing.id, listing: listingView(listing) } };
}

export async function getListing(listings: ListingsStore, options: { org: string; id: string }): Promise<CommandResult> {
  const listing = await listings.find(options.org, options.id);
  if (!listing) throw notFound('listing', options.id);
  return { text: JSON.stringify(listingView(listing), null, 2), value: listingView(listing) };
}

export async function listListings(
  listings: ListingsStore,
  options: { org: string; status?: string; externalId?: string; limit?: string; startingAfter?: string },
): Promise<CommandResult> {
  const limit = options.limit === undefined ? 100 : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new UsageError('--limit must be 1..100');
  const page = await listings.list(options.org, {
    limit,
    status: statusOf(options.status),
    externalId: options.externalId,
    startingAfter: options.startingAfter,
  });
  return {
    text: page.data.map((l) => `${l.id}\t${l.status}\t${l.externalId ?? '-'}\t${l.title}`).join('\n') || 'no listings',
    value: { object: 'list', data: page.data.map(listingView), has_more: page.hasMore },
  };
}

export async function updateListing(listings: ListingsStore, options: ListingOptions & { id: string }): Promise<CommandResult> {
  const change = fieldsOf(options);
  if (options.externalId !== undefined) change.externalId = options.externalId;
  const listing = await listings.update(options.org, options.id, change);
  if (!listing) throw notFound('listing', options.id);
  return shown('updated', listing);
}

export async function setListingStatus(listings: ListingsStore, options: { org: string; id: string }, status: 'open' | 'closed'): Promise<CommandResult> {
  if (!(await listings.find(options.org, options.id))) throw notFound('listing', options.id);
  return shown(status === 'closed' ? 'closed' : 'reopened', (await listings.update(options.org, options.id, { status }))!);
}

export async function upsertListing(listings: ListingsStore, options: ListingOptions & { externalId: string }): Promise<CommandResult> {
  const fields = fieldsOf(options);
  if (!fields.title) throw new UsageError('--title is required');
  const { listing, created } = await listings.upsertByExternalId(options.org, options.externalId, { ...fields, title: fields.title });
  return shown(created ? 'created' : 'updated', listing);
}

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
  return (run: (listings: ListingsStore, options: Options) => Promise<CommandResult>) => async (options: Options) => {
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

const fields = (o: Options): ListingOptions => ({
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
      .action(run((store, o) => createListing(store, fields(o))));

    org(listings.command('get').description('Show one listing'))
      .requiredOption('--id <listing_id>', 'the listing')
      .addHelpText('after', '\nExample:\n  $ hiring-integrations listing get --org org_… --id listing_… --json')
      .action(run((store, o) => getListing(store, { org: o.org, id: o.id as string })));

    org(listings.command('list').description('List listings, newest first'))
      .option('--status <status>', 'only open or only closed listings')
      .option('--external-id <id>', 'the listing with this ATS id')
      .option('--limit <n>', '1-100 (default 100)')
      .option('--starting-after <listing_id>', 'the next page after this listing')
      .addHelpText('after', '\nExample:\n  $ hiring-integrations listing list --org org_… --status open --json')
      .action(
        run((store, o) =>
          listListings(store, {
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
      .action(run((store, o) => updateListing(store, { ...fields(o), id: o.id as string })));

    for (const [name, status, text] of [
      ['close', 'closed', 'Close a listing: it refuses applications (410)'],
      ['reopen', 'open', 'Reopen a closed listing'],
    ] as const) {
      org(listings.command(name).description(text))
        .requiredOption('--id <listing_id>', 'the listing')
        .addHelpText('after', `\nExample:\n  $ hiring-integrations listing ${name} --org org_… --id listing_…`)
        .action(run((store, o) => setListingStatus(store, { org: o.org, id: o.id as string }, status)));
    }

    withFields(org(listings.command('upsert').description('Create or replace the listing the ATS knows by its own id (idempotent)')))
      .requiredOption('--title <title>', "the listing's title")
      .addHelpText('after', '\nExample:\n  $ hiring-integrations listing upsert --org org_… --external-id job-42 --title "Backend Engineer" --json')
      .action(
        run((store, o) => {
          if (typeof o.externalId !== 'string') throw new UsageError("--external-id is required: it is the ATS's id the listing is found by");
          return upsertListing(store, { ...fields(o), externalId: o.externalId });
        }),
      );
  },
};
