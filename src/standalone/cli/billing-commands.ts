/**
 * `invoices …` and `billing clock …`: operator billing commands. Each is one function taking
 * plain options and answering `{ text, value }` (what to print, and the --json value); they
 * call the running service's operator API (BASE_URL, OPERATOR_API_KEY), not the database, so
 * events are published and every API process hears a restored organization at once (and in
 * embedded mode the server owns the database anyway). `billingCommands` at the end declares
 * them to commander.
 */
import { UsageError } from './usage-error';
import { group, type CliContext, type CommandModule } from './context';

export interface OperatorApi {
  baseUrl: string;
  operatorKey: string | undefined;
}

export interface CommandResult {
  text: string;
  value: object;
}

export class OperatorApiError extends Error {}

async function call(api: OperatorApi, method: 'GET' | 'POST', path: string, body?: object): Promise<any> {
  if (!api.operatorKey) throw new UsageError('OPERATOR_API_KEY must be set to call the operator API');
  let response: Response;
  try {
    response = await fetch(`${api.baseUrl}/v1/billing${path}`, {
      method,
      headers: { authorization: `Bearer ${api.operatorKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (error) {
    throw new OperatorApiError(`cannot reach ${api.baseUrl} (${(error as Error).message}); is the server running?`);
  }
  const parsed = (await response.json().catch(() => undefined)) as { error?: { code?: string; message?: string } } | undefined;
  if (!response.ok) throw new OperatorApiError(`${response.status} ${parsed?.error?.code ?? ''}: ${parsed?.error?.message ?? response.statusText}`);
  return parsed;
}

const money = (cents: number, currency: string) => `${currency} ${(cents / 100).toFixed(2)}`;

const invoiceLine = (i: any) =>
  `${i.number ?? '(draft)'}  ${i.id}  ${i.organization_id}  ${i.status.padEnd(13)} ${money(i.total, i.currency).padStart(12)}  ${i.period_start.slice(0, 10)}`;

export async function listInvoices(api: OperatorApi, options: { organizationId?: string; status?: string; limit?: number }): Promise<CommandResult> {
  const query = new URLSearchParams();
  if (options.organizationId) query.set('organization_id', options.organizationId);
  if (options.status) query.set('status', options.status);
  query.set('limit', String(options.limit ?? 100));
  const page = await call(api, 'GET', `/operator/invoices?${query}`);
  return { text: page.data.length ? page.data.map(invoiceLine).join('\n') : 'no invoices', value: page };
}

export type InvoiceAction = 'mark_paid' | 'void' | 'retry' | 'mark_uncollectible' | 'payment_failed';

export async function changeInvoice(
  api: OperatorApi,
  invoiceId: string,
  action: InvoiceAction,
  details: { reference?: string; reason?: string } = {},
): Promise<CommandResult> {
  if (action === 'payment_failed' && !details.reason) throw new UsageError('--reason is required');
  const body =
    action === 'mark_paid' ? (details.reference ? { reference: details.reference } : {}) : action === 'payment_failed' ? { reason: details.reason } : undefined;
  const invoice = await call(api, 'POST', `/operator/invoices/${encodeURIComponent(invoiceId)}/${action}`, body);
  return { text: invoiceLine(invoice), value: invoice };
}

export async function setTestClock(api: OperatorApi, organizationId: string, frozenTime: string): Promise<CommandResult> {
  const account = await call(api, 'POST', `/operator/organizations/${encodeURIComponent(organizationId)}/test_clock`, { frozen_time: frozenTime });
  return { text: `${organizationId}: test clock at ${account.now}, status ${account.status}`, value: account };
}

export async function advanceTestClock(api: OperatorApi, organizationId: string, to: string): Promise<CommandResult> {
  const account = await call(api, 'POST', `/operator/organizations/${encodeURIComponent(organizationId)}/test_clock/advance`, { to });
  return { text: `${organizationId}: test clock at ${account.now}, status ${account.status}`, value: account };
}

/** Names the CLI maps to the functions above (`invoices mark-paid` → mark_paid). */
export const INVOICE_ACTIONS: Record<string, InvoiceAction> = {
  'mark-paid': 'mark_paid',
  void: 'void',
  retry: 'retry',
  'mark-uncollectible': 'mark_uncollectible',
  'payment-failed': 'payment_failed',
};

function operatorApi(context: CliContext): OperatorApi {
  const config = context.config();
  return { baseUrl: config.baseUrl, operatorKey: config.operatorApiKey };
}

export const billingCommands: CommandModule = {
  register(program, context) {
    const print = (options: { json?: boolean }, result: CommandResult) => context.print(options, result.text, result.value);
    const invoices = group(program, 'invoices', "Invoices across organizations (the operator's view)");
    invoices
      .command('list')
      .description('List invoices, newest first')
      .option('--org <org_id>', 'only this organization')
      .option('--status <status>', 'draft, open, paid, void or uncollectible')
      .option('--json', 'print the list as JSON')
      .addHelpText('after', '\nExample:\n  $ hiring-integrations invoices list --status open --json')
      .action(async (options: { org?: string; status?: string; json?: boolean }) =>
        print(options, await listInvoices(operatorApi(context), { organizationId: options.org, status: options.status })),
      );
    for (const [name, action] of Object.entries(INVOICE_ACTIONS)) {
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
        print(options, await changeInvoice(operatorApi(context), options.invoice, action, { reference: options.reference, reason: options.reason })),
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
        print(options, await setTestClock(operatorApi(context), options.org, options.time)),
      );
    clock
      .command('advance')
      .description('Move the clock forward; renewals, prorations and dunning follow')
      .requiredOption('--org <org_id>', 'the organization')
      .requiredOption('--to <iso>', 'the new time (later than the clock)')
      .option('--json', 'print the clock as JSON')
      .addHelpText('after', '\nExample:\n  $ hiring-integrations billing clock advance --org org_… --to 2027-06-01T00:00:00Z')
      .action(async (options: { org: string; to: string; json?: boolean }) =>
        print(options, await advanceTestClock(operatorApi(context), options.org, options.to)),
      );
  },
};
