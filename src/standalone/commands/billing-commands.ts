/**
 * `invoices …` and `billing clock …`: billing through the running service's operator API
 * (BASE_URL, OPERATOR_API_KEY), so events are published and every API process hears of a
 * restoration. The work is done by the functions of ../billing-commands.
 */
import * as billing from '../billing-commands';
import { group, type CliContext, type CommandModule } from './context';

function operatorApi(context: CliContext): billing.OperatorApi {
  const config = context.config();
  return { baseUrl: config.baseUrl, operatorKey: config.operatorApiKey };
}

export const billingCommands: CommandModule = {
  register(program, context) {
    const print = (options: { json?: boolean }, result: billing.CommandResult) => context.print(options, result.text, result.value);
    const invoices = group(program, 'invoices', "Invoices across organizations (the operator's view)");
    invoices
      .command('list')
      .description('List invoices, newest first')
      .option('--org <org_id>', 'only this organization')
      .option('--status <status>', 'draft, open, paid, void or uncollectible')
      .option('--json', 'print the list as JSON')
      .addHelpText('after', '\nExample:\n  $ hiring-integrations invoices list --status open --json')
      .action(async (options: { org?: string; status?: string; json?: boolean }) =>
        print(options, await billing.listInvoices(operatorApi(context), { organizationId: options.org, status: options.status })),
      );
    for (const [name, action] of Object.entries(billing.INVOICE_ACTIONS)) {
      const command = invoices
        .command(name)
        .description(`${name.replace(/-/g, ' ')}: change an invoice's state`)
        .requiredOption('--invoice <inv_id>', 'the invoice (inv_…)')
        .option('--json', 'print the invoice as JSON')
        .addHelpText(
          'after',
          `\nExample:\n  $ hiring-integrations invoices ${name} --invoice inv_…${action === 'payment_failed' ? ' --reason "card declined"' : ''}`,
        );
      if (action === 'mark_paid') command.option('--reference <text>', "the payment's reference in your payment system");
      if (action === 'payment_failed') command.requiredOption('--reason <text>', 'why the payment failed');
      command.action(async (options: { invoice: string; reference?: string; reason?: string; json?: boolean }) =>
        print(options, await billing.changeInvoice(operatorApi(context), options.invoice, action, { reference: options.reference, reason: options.reason })),
      );
    }

    const clock = group(program, 'billing', 'Billing test clocks (outside production)').command('clock').description("An organization's billing test clock");
    clock
      .command('set')
      .description("Freeze an organization's billing clock at a time")
      .requiredOption('--org <org_id>', 'the organization')
      .requiredOption('--time <iso>', 'an ISO 8601 time')
      .option('--json', 'print the clock as JSON')
      .addHelpText('after', '\nExample:\n  $ hiring-integrations billing clock set --org org_… --time 2027-01-01T00:00:00Z')
      .action(async (options: { org: string; time: string; json?: boolean }) =>
        print(options, await billing.setTestClock(operatorApi(context), options.org, options.time)),
      );
    clock
      .command('advance')
      .description('Move the clock forward; renewals, prorations and dunning follow')
      .requiredOption('--org <org_id>', 'the organization')
      .requiredOption('--to <iso>', 'the new time (later than the clock)')
      .option('--json', 'print the clock as JSON')
      .addHelpText('after', '\nExample:\n  $ hiring-integrations billing clock advance --org org_… --to 2027-06-01T00:00:00Z')
      .action(async (options: { org: string; to: string; json?: boolean }) =>
        print(options, await billing.advanceTestClock(operatorApi(context), options.org, options.to)),
      );
  },
};
