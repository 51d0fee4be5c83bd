/** `listing create`: listings of the standalone host (an ATS has its own). */
import { UsageError } from '../args';
import { operatorServices } from '../operator-services';
import { group, type CommandModule } from './context';

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

export const listingCommands: CommandModule = {
  register(program, context) {
    group(program, 'listing', 'Listings of the standalone host')
      .command('create')
      .description('Create an open listing with screening questions')
      .requiredOption('--org <org_id>', 'the organization (org_…)')
      .requiredOption('--title <title>', "the listing's title")
      .option('--questions <json>', 'screening questions as a JSON array (see below)', '[]')
      .option('--json', 'print {"listing_id"}')
      .addHelpText('after', QUESTIONS_HELP)
      .action(async (options: { org: string; title: string; questions: string; json?: boolean }) => {
        let questions: unknown;
        try {
          questions = JSON.parse(options.questions);
        } catch {
          throw new UsageError('--questions must be a JSON array (see hiring-integrations listing create --help)');
        }
        await context.withDatabase(async (db) => {
          const services = operatorServices(db, context.config());
          await services.organizations.get(options.org);
          const parsed = (await import('../listings-store')).questionsSchema.safeParse(questions);
          if (!parsed.success) {
            const issue = parsed.error.issues[0]!;
            throw new UsageError(`--questions: ${issue.path.join('.') || 'value'}: ${issue.message}`);
          }
          const listing = await services.listings.create({ organizationId: options.org, title: options.title, questions: parsed.data });
          context.print(options, `listing ${listing.id} created`, { listing_id: listing.id });
        });
      });
  },
};
