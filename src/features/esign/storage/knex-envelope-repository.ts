/** Envelopes in PostgreSQL (hi_esign_envelopes): the PDFs as bytea, the audit events as jsonb. */
import { isUniqueViolation, type Database } from '../../../platform/database/database';
import type { Envelope, EnvelopeChanges, EnvelopeEvent, EnvelopeReminder, EnvelopeRepository, EnvelopeStatus } from '../domain/envelope';
import { DAY_MS, DEFAULT_REMINDERS, type ReminderSettings } from '../domain/reminder-schedule';
import { remindersOf, type ReminderColumns } from './knex-esign-settings';

const TABLE = 'hi_esign_envelopes';
/** Every column but the PDFs (read only when asked for). */
const COLUMNS = [
  'id',
  'organization_id',
  'kind',
  'reference_id',
  'source_key',
  'template_id',
  'title',
  'document_text',
  'document_sha256',
  'signer_name',
  'signer_email',
  'signer_phone',
  'language',
  'status',
  'signature_method',
  'signature_typed_name',
  'signature_image',
  'decline_reason',
  'signed_document_sha256',
  'events',
  'email_run_id',
  'sms_run_id',
  'reminder_due_at',
  'reminders',
  'expires_at',
  'completed_at',
  'created_at',
  'updated_at',
];

interface Row {
  id: string;
  organization_id: string;
  kind: Envelope['kind'];
  reference_id: string;
  source_key: string | null;
  template_id: string | null;
  title: string;
  document_text: string;
  document_sha256: string;
  signer_name: string;
  signer_email: string;
  signer_phone: string | null;
  language: string;
  status: EnvelopeStatus;
  signature_method: 'typed' | 'drawn' | null;
  signature_typed_name: string | null;
  signature_image: Buffer | Uint8Array | null;
  decline_reason: string | null;
  signed_document_sha256: string | null;
  events: EnvelopeEvent[] | string;
  email_run_id: string | null;
  sms_run_id: string | null;
  reminder_due_at: Date | null;
  reminders: EnvelopeReminder[] | string;
  expires_at: Date;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const fromRow = (r: Row): Envelope => ({
  id: r.id,
  organizationId: r.organization_id,
  kind: r.kind,
  referenceId: r.reference_id,
  sourceKey: r.source_key,
  templateId: r.template_id,
  title: r.title,
  documentText: r.document_text,
  documentSha256: r.document_sha256,
  signer: { name: r.signer_name, email: r.signer_email, phone: r.signer_phone },
  language: r.language,
  status: r.status,
  signature: r.signature_method
    ? { method: r.signature_method, typedName: r.signature_typed_name ?? '', image: r.signature_image ? Buffer.from(r.signature_image) : null }
    : null,
  declineReason: r.decline_reason,
  signedDocumentSha256: r.signed_document_sha256,
  events: typeof r.events === 'string' ? (JSON.parse(r.events) as EnvelopeEvent[]) : r.events,
  emailRunId: r.email_run_id,
  smsRunId: r.sms_run_id,
  reminderDueAt: r.reminder_due_at ? new Date(r.reminder_due_at) : null,
  reminders: typeof r.reminders === 'string' ? (JSON.parse(r.reminders) as EnvelopeReminder[]) : (r.reminders ?? []),
  expiresAt: new Date(r.expires_at),
  completedAt: r.completed_at ? new Date(r.completed_at) : null,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

export class KnexEnvelopeRepository implements EnvelopeRepository {
  constructor(private readonly db: Database) {}

  async create(e: Envelope, document: Buffer): Promise<string> {
    try {
      await this.db(TABLE).insert({
        id: e.id,
        organization_id: e.organizationId,
        kind: e.kind,
        reference_id: e.referenceId,
        source_key: e.sourceKey,
        template_id: e.templateId,
        title: e.title,
        document_text: e.documentText,
        document: document,
        document_sha256: e.documentSha256,
        signer_name: e.signer.name,
        signer_email: e.signer.email,
        signer_phone: e.signer.phone,
        language: e.language,
        status: e.status,
        events: JSON.stringify(e.events),
        email_run_id: e.emailRunId,
        sms_run_id: e.smsRunId,
        expires_at: e.expiresAt,
        created_at: e.createdAt,
        updated_at: e.updatedAt,
      });
      return e.id;
    } catch (error) {
      if (!e.sourceKey || !isUniqueViolation(error, 'hi_esign_envelopes_source')) throw error;
      const winner = await this.findBySource(e.organizationId, e.sourceKey);
      if (!winner) throw error;
      return winner.id;
    }
  }

  async get(organizationId: string, id: string): Promise<Envelope | undefined> {
    const row: Row | undefined = await this.db(TABLE).select(COLUMNS).where({ organization_id: organizationId, id }).first();
    return row ? fromRow(row) : undefined;
  }

  async findBySource(organizationId: string, sourceKey: string): Promise<Envelope | undefined> {
    const row: Row | undefined = await this.db(TABLE).select(COLUMNS).where({ organization_id: organizationId, source_key: sourceKey }).first();
    return row ? fromRow(row) : undefined;
  }

  async list(organizationId: string, filter: { referenceId?: string; status?: EnvelopeStatus; limit: number }): Promise<Envelope[]> {
    const query = this.db(TABLE).select(COLUMNS).where({ organization_id: organizationId });
    if (filter.referenceId) query.where({ reference_id: filter.referenceId });
    if (filter.status) query.where({ status: filter.status });
    const rows: Row[] = await query
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(filter.limit);
    return rows.map(fromRow);
  }

  async document(organizationId: string, id: string, which: 'original' | 'signed'): Promise<Buffer | undefined> {
    const column = which === 'original' ? 'document' : 'signed_document';
    const row: Record<string, Buffer | Uint8Array | null> | undefined = await this.db(TABLE)
      .select(column)
      .where({ organization_id: organizationId, id })
      .first();
    const bytes = row?.[column];
    return bytes ? Buffer.from(bytes) : undefined;
  }

  async update(organizationId: string, id: string, c: EnvelopeChanges, now: Date, whenStatus?: EnvelopeStatus): Promise<boolean> {
    const query = this.db(TABLE).where({ organization_id: organizationId, id });
    if (whenStatus) query.where({ status: whenStatus });
    const rows: unknown[] = await query
      .update({
        ...(c.status ? { status: c.status } : {}),
        ...(c.signature
          ? { signature_method: c.signature.method, signature_typed_name: c.signature.typedName, signature_image: c.signature.image ?? null }
          : {}),
        ...(c.declineReason !== undefined ? { decline_reason: c.declineReason } : {}),
        ...(c.signedDocument ? { signed_document: c.signedDocument } : {}),
        ...(c.signedDocumentSha256 ? { signed_document_sha256: c.signedDocumentSha256 } : {}),
        ...(c.events ? { events: JSON.stringify(c.events) } : {}),
        ...(c.appendEvents && !c.events ? { events: this.db.raw('events || ?::jsonb', [JSON.stringify(c.appendEvents)]) } : {}),
        ...(c.emailRunId !== undefined ? { email_run_id: c.emailRunId } : {}),
        ...(c.smsRunId !== undefined ? { sms_run_id: c.smsRunId } : {}),
        ...(c.completedAt ? { completed_at: c.completedAt } : {}),
        updated_at: now,
      })
      .returning('id');
    return rows.length > 0;
  }

  async remove(organizationId: string, id: string): Promise<void> {
    await this.db(TABLE).where({ organization_id: organizationId, id }).delete();
  }

  async expireDue(now: Date, event: EnvelopeEvent): Promise<Envelope[]> {
    // One statement: two sweeps at once expire (and announce) each envelope once.
    const rows: Row[] = await this.db(TABLE)
      .where({ status: 'sent' })
      .where('expires_at', '<=', now)
      .update({
        status: 'expired',
        completed_at: now,
        updated_at: now,
        events: this.db.raw('events || ?::jsonb', [JSON.stringify([event])]),
      })
      .returning(COLUMNS);
    return rows.map(fromRow);
  }

  async remindable(now: Date, limit: number, afterId?: string): Promise<{ envelope: Envelope; settings: ReminderSettings }[]> {
    // A prefilter only (the schedule decides): open, a day old at least (no slot falls earlier), its
    // organization's reminders on, and a slot possibly due since the last claim (every_days ago, or the expiry notice).
    const query = this.db(`${TABLE} as e`)
      .leftJoin('hi_esign_settings as s', 's.organization_id', 'e.organization_id')
      .select([...COLUMNS.map((c) => `e.${c}`), 's.reminders_enabled', 's.reminder_first_after_days', 's.reminder_every_days', 's.reminder_expiry_notice'])
      .where('e.status', 'sent')
      .where('e.expires_at', '>', now)
      .where('e.created_at', '<=', new Date(now.getTime() - DAY_MS))
      .whereRaw('coalesce(s.reminders_enabled, ?)', [DEFAULT_REMINDERS.enabled])
      .where((w) =>
        w
          .whereNull('e.reminder_due_at')
          .orWhereRaw('e.reminder_due_at <= ?::timestamptz - make_interval(days => coalesce(s.reminder_every_days, ?))', [now, DEFAULT_REMINDERS.everyDays])
          .orWhereRaw(
            `coalesce(s.reminder_expiry_notice, ?) and e.reminder_due_at < e.expires_at - interval '1 day' and e.expires_at - interval '1 day' <= ?`,
            [DEFAULT_REMINDERS.expiryNotice, now],
          ),
      )
      .orderBy('e.id')
      .limit(limit);
    if (afterId) query.where('e.id', '>', afterId);
    const rows: (Row & ReminderColumns)[] = await query;
    return rows.map((r) => ({ envelope: fromRow(r), settings: remindersOf(r) }));
  }

  async claimReminder(organizationId: string, id: string, dueAt: Date, now: Date): Promise<boolean> {
    // One UPDATE: the row lock orders two sweeps, and the second finds the slot taken (or the envelope signed).
    const rows: unknown[] = await this.db(TABLE)
      .where({ organization_id: organizationId, id, status: 'sent' })
      .where('expires_at', '>', now)
      .where((w) => w.whereNull('reminder_due_at').orWhere('reminder_due_at', '<', dueAt))
      .update({ reminder_due_at: dueAt, updated_at: now })
      .returning('id');
    return rows.length > 0;
  }

  async releaseReminder(organizationId: string, id: string, dueAt: Date, previous: Date | null): Promise<void> {
    await this.db(TABLE).where({ organization_id: organizationId, id, reminder_due_at: dueAt }).update({ reminder_due_at: previous });
  }

  async recordReminder(organizationId: string, id: string, reminder: EnvelopeReminder, event: EnvelopeEvent, now: Date): Promise<void> {
    await this.db(TABLE)
      .where({ organization_id: organizationId, id })
      .update({
        reminders: this.db.raw('reminders || ?::jsonb', [JSON.stringify([reminder])]),
        events: this.db.raw('events || ?::jsonb', [JSON.stringify([event])]),
        updated_at: now,
      });
  }
}
