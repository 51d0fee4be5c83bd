/** hi_client_invoices through knex; numbers from the billing engine's counters (billing/storage/invoice-numbers.ts). */
import type { Database } from '../../../platform/database/database';
import { formatInvoiceNumber } from '../../billing/domain/invoice';
import { nextInvoiceSequence } from '../../billing/storage/invoice-numbers';
import {
  CLIENT_INVOICE_PREFIX,
  type ClientInvoice,
  type ClientInvoiceLine,
  type ClientInvoiceRepository,
  type ClientInvoiceStatus,
} from '../domain/client-invoice';

interface Row {
  id: string;
  organization_id: string;
  client_company_id: string;
  client_name: string;
  contact_name: string;
  contact_email: string;
  period_start: string;
  period_end: string;
  status: ClientInvoiceStatus;
  number: string | null;
  currency: string;
  lines: ClientInvoiceLine[] | string;
  total_cents: string | number;
  email_run_id: string | null;
  email_error: string | null;
  created_at: Date | string;
  finalized_at: Date | string | null;
  paid_at: Date | string | null;
  voided_at: Date | string | null;
}

const date = (value: Date | string | null) => (value === null ? null : new Date(value));

const invoiceOf = (r: Row): ClientInvoice => ({
  id: r.id,
  organizationId: r.organization_id,
  clientCompanyId: r.client_company_id,
  clientName: r.client_name,
  contactName: r.contact_name,
  contactEmail: r.contact_email,
  periodStart: r.period_start,
  periodEnd: r.period_end,
  status: r.status,
  number: r.number,
  currency: r.currency,
  lines: typeof r.lines === 'string' ? (JSON.parse(r.lines) as ClientInvoiceLine[]) : r.lines,
  total: Number(r.total_cents),
  emailRunId: r.email_run_id,
  emailError: r.email_error,
  createdAt: new Date(r.created_at),
  finalizedAt: date(r.finalized_at),
  paidAt: date(r.paid_at),
  voidedAt: date(r.voided_at),
});

/** One gapless series per agency. */
const seriesOf = (organizationId: string) => `client-invoices:${organizationId}`;

export class KnexClientInvoiceRepository implements ClientInvoiceRepository {
  constructor(private readonly db: Database) {}

  async createDraft(i: ClientInvoice): Promise<boolean> {
    const raced = new Error('a timesheet was invoiced meanwhile');
    return this.db
      .transaction(async (trx) => {
        const ids = i.lines.map((l) => l.timesheetId);
        const reserved = await trx('hi_timesheets')
          .where({ organization_id: i.organizationId, status: 'approved' })
          .whereIn('id', ids)
          .whereNull('invoice_id')
          .update({ invoice_id: i.id });
        // Thrown, so the reservations made are rolled back with the transaction.
        if (reserved !== ids.length) throw raced;
        await trx('hi_client_invoices').insert({
          id: i.id,
          organization_id: i.organizationId,
          client_company_id: i.clientCompanyId,
          client_name: i.clientName,
          contact_name: i.contactName,
          contact_email: i.contactEmail,
          period_start: i.periodStart,
          period_end: i.periodEnd,
          status: i.status,
          number: i.number,
          currency: i.currency,
          lines: JSON.stringify(i.lines),
          total_cents: i.total,
          created_at: i.createdAt,
        });
        return true;
      })
      .catch((error: unknown) => {
        if (error === raced) return false;
        throw error;
      });
  }

  async get(organizationId: string, id: string): Promise<ClientInvoice | undefined> {
    const row = await this.db<Row>('hi_client_invoices').where({ organization_id: organizationId, id }).first();
    return row ? invoiceOf(row) : undefined;
  }

  async finalize(id: string, at: Date): Promise<ClientInvoice | undefined> {
    return this.db.transaction(async (trx) => {
      const row = await trx<Row>('hi_client_invoices').where({ id, status: 'draft' }).forUpdate().first();
      if (!row) return undefined;
      const number = formatInvoiceNumber(await nextInvoiceSequence(trx, seriesOf(row.organization_id)), CLIENT_INVOICE_PREFIX);
      await trx('hi_client_invoices').where({ id }).update({ status: 'open', number, finalized_at: at });
      return invoiceOf({ ...row, status: 'open', number, finalized_at: at });
    });
  }

  async transition(id: string, from: readonly ClientInvoiceStatus[], to: 'paid' | 'void', at: Date): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const changed = await trx('hi_client_invoices')
        .where({ id })
        .whereIn('status', from)
        .update(to === 'paid' ? { status: 'paid', paid_at: at } : { status: 'void', voided_at: at });
      // A void invoice bills nothing: its timesheets may be invoiced again.
      if (changed > 0 && to === 'void') await trx('hi_timesheets').where({ invoice_id: id }).update({ invoice_id: null });
      return changed > 0;
    });
  }

  async recordEmail(id: string, outcome: { runId: string | null; error: string | null }): Promise<void> {
    await this.db('hi_client_invoices').where({ id }).update({ email_run_id: outcome.runId, email_error: outcome.error });
  }
}
