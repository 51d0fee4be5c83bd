/**
 * payroll.invoicing: approved timesheets of one client company in a period become a draft
 * invoice; finalizing numbers it and emails the PDF to the client's contact (an action run);
 * paid and void by API.
 */
import { inject, injectable } from 'tsyringe';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { conflict, forbidden, isDomainError, notFound } from '../../../kernel/errors';
import { newId } from '../../../kernel/ids';
import { HookGate } from '../../hooks/domain/hook-gate';
import { NOTIFICATION_CONNECTOR, type NotificationConnector } from '../../hooks/domain/connectors';
import {
  CLIENT_INVOICE_DOCUMENTS,
  CLIENT_INVOICE_REPOSITORY,
  INVOICING_ACTION,
  invoiceLines,
  requireClientInvoiceTransition,
  type ClientInvoice,
  type ClientInvoiceDocuments,
  type ClientInvoiceRepository,
} from './client-invoice';
import { APPROVED_TIMESHEETS, TIMESHEET_REPOSITORY, type ApprovedTimesheets, type TimesheetRepository } from './ports';

@injectable()
export class ClientInvoiceService {
  constructor(
    @inject(CLIENT_INVOICE_REPOSITORY) private readonly invoices: ClientInvoiceRepository,
    @inject(APPROVED_TIMESHEETS) private readonly approved: ApprovedTimesheets,
    @inject(TIMESHEET_REPOSITORY) private readonly timesheets: TimesheetRepository,
    @inject(CLIENT_INVOICE_DOCUMENTS) private readonly documents: ClientInvoiceDocuments,
    @inject(NOTIFICATION_CONNECTOR) private readonly email: NotificationConnector,
    @inject(HookGate) private readonly gate: HookGate,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** A draft of every approved, not yet invoiced timesheet of the client whose week starts in [periodStart, periodEnd]. */
  async create(organizationId: string, input: { clientCompanyId: string; periodStart: string; periodEnd: string }): Promise<ClientInvoice> {
    await this.requireLicense(organizationId);
    if (input.periodEnd < input.periodStart) throw conflict('period_invalid', 'period_end is before period_start');
    const due = (await this.approved.list(organizationId, { clientCompanyId: input.clientCompanyId, uninvoiced: true })).filter(
      (t) => t.periodStart >= input.periodStart && t.periodStart <= input.periodEnd,
    );
    if (due.length === 0)
      throw conflict('nothing_to_invoice', `No approved, uninvoiced timesheets of ${input.clientCompanyId} start in ${input.periodStart} – ${input.periodEnd}`);
    const placement = await this.timesheets.placement(organizationId, due[0]!.placementId);
    const { lines, total, currency } = invoiceLines(due);
    const invoice: ClientInvoice = {
      id: newId('cinv'),
      organizationId,
      clientCompanyId: input.clientCompanyId,
      clientName: placement!.clientName,
      contactName: placement!.clientContactName,
      contactEmail: placement!.clientContactEmail,
      periodStart: input.periodStart,
      periodEnd: input.periodEnd,
      status: 'draft',
      number: null,
      currency,
      lines,
      total,
      emailRunId: null,
      emailError: null,
      createdAt: this.clock.now(),
      finalizedAt: null,
      paidAt: null,
      voidedAt: null,
    };
    if (!(await this.invoices.createDraft(invoice))) throw conflict('timesheets_invoiced', 'A timesheet of this period was invoiced meanwhile: try again');
    return invoice;
  }

  async get(organizationId: string, id: string): Promise<ClientInvoice> {
    const invoice = await this.invoices.get(organizationId, id);
    if (!invoice) throw notFound('invoice', id);
    return invoice;
  }

  /**
   * Numbers the draft and emails it (PDF attached) to the client's contact. Finalizing an
   * open invoice whose email failed sends it again (same idempotency key: never twice).
   */
  async finalize(organizationId: string, id: string): Promise<ClientInvoice> {
    let invoice = await this.get(organizationId, id);
    await this.requireLicense(organizationId);
    if (invoice.status === 'draft') {
      invoice = (await this.invoices.finalize(id, this.clock.now())) ?? (await this.get(organizationId, id));
    }
    if (invoice.status !== 'open') requireClientInvoiceTransition(invoice, 'open');
    if (invoice.emailRunId) return invoice;
    try {
      const pdf = await this.documents.pdf(invoice);
      const delivery = await this.email.sendEmail({
        organizationId,
        actionKey: INVOICING_ACTION,
        idempotencyKey: `client-invoice-${organizationId}-${invoice.id}`,
        to: { name: invoice.contactName, email: invoice.contactEmail },
        subject: `Invoice ${invoice.number} for ${invoice.periodStart} to ${invoice.periodEnd}`,
        text: `Hello ${invoice.contactName},\n\nattached is invoice ${invoice.number} for ${invoice.clientName}: ${invoice.currency} ${(invoice.total / 100).toFixed(2)} for the approved hours of ${invoice.periodStart} to ${invoice.periodEnd}.\n`,
        attachments: [{ filename: `${invoice.number}.pdf`, contentType: 'application/pdf', content: pdf }],
      });
      await this.invoices.recordEmail(id, { runId: delivery.deliveryId, error: null });
      return { ...invoice, emailRunId: delivery.deliveryId, emailError: null };
    } catch (error) {
      if (!isDomainError(error) || error.kind === 'upstream') throw error;
      // The invoice stays open and numbered; the code says why the email did not go (finalize again to retry).
      await this.invoices.recordEmail(id, { runId: null, error: error.code });
      return { ...invoice, emailError: error.code };
    }
  }

  async pay(organizationId: string, id: string): Promise<ClientInvoice> {
    return this.move(organizationId, id, 'paid');
  }

  async void(organizationId: string, id: string): Promise<ClientInvoice> {
    return this.move(organizationId, id, 'void');
  }

  private async move(organizationId: string, id: string, to: 'paid' | 'void'): Promise<ClientInvoice> {
    const invoice = await this.get(organizationId, id);
    if (invoice.status === to) return invoice;
    requireClientInvoiceTransition(invoice, to);
    if (!(await this.invoices.transition(id, to === 'paid' ? ['open'] : ['draft', 'open'], to, this.clock.now()))) return this.move(organizationId, id, to);
    return this.get(organizationId, id);
  }

  private async requireLicense(organizationId: string): Promise<void> {
    if (!(await this.gate.allows(organizationId, INVOICING_ACTION))) {
      throw forbidden(
        'license_required',
        `The ${INVOICING_ACTION} license is not active for this organization (POST /v1/integrations/licenses/${INVOICING_ACTION}/activate)`,
      );
    }
  }
}
