/**
 * The invoice number counters (hi_invoice_numbers): one gapless series per name, advanced in
 * the caller's transaction so a number is taken only if the invoice that carries it commits.
 * The billing engine's own invoices use series `billing`; payroll.invoicing one series per
 * organization (an agency numbers its client invoices without gaps of its own).
 */
import type { Knex } from 'knex';

export async function nextInvoiceSequence(trx: Knex.Transaction, series: string): Promise<number> {
  await trx('hi_invoice_numbers').insert({ series, last_number: 0 }).onConflict('series').ignore();
  const [row] = await trx('hi_invoice_numbers').where({ series }).increment('last_number', 1).returning('last_number');
  return Number((row as { last_number: number }).last_number);
}
