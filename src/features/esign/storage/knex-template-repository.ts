/** Document templates in PostgreSQL (hi_esign_templates). */
import type { Database } from '../../../platform/database/database';
import type { EnvelopeKind } from '../domain/envelope';
import type { DocumentTemplate, TemplateRepository } from '../domain/templates';

interface Row {
  id: string;
  organization_id: string;
  kind: EnvelopeKind;
  name: string;
  title: string;
  body: string;
  created_at: Date;
  updated_at: Date;
}

const fromRow = (r: Row): DocumentTemplate => ({
  id: r.id,
  organizationId: r.organization_id,
  kind: r.kind,
  name: r.name,
  title: r.title,
  body: r.body,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

export class KnexTemplateRepository implements TemplateRepository {
  constructor(private readonly db: Database) {}

  async list(organizationId: string): Promise<DocumentTemplate[]> {
    const rows: Row[] = await this.db('hi_esign_templates')
      .where({ organization_id: organizationId })
      .orderBy([{ column: 'created_at' }, { column: 'id' }])
      .limit(200);
    return rows.map(fromRow);
  }

  async get(organizationId: string, id: string): Promise<DocumentTemplate | undefined> {
    const row: Row | undefined = await this.db('hi_esign_templates').where({ organization_id: organizationId, id }).first();
    return row ? fromRow(row) : undefined;
  }

  async newest(organizationId: string, kind: EnvelopeKind): Promise<DocumentTemplate | undefined> {
    const row: Row | undefined = await this.db('hi_esign_templates')
      .where({ organization_id: organizationId, kind })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .first();
    return row ? fromRow(row) : undefined;
  }

  async save(t: DocumentTemplate): Promise<void> {
    await this.db('hi_esign_templates')
      .insert({
        id: t.id,
        organization_id: t.organizationId,
        kind: t.kind,
        name: t.name,
        title: t.title,
        body: t.body,
        created_at: t.createdAt,
        updated_at: t.updatedAt,
      })
      .onConflict('id')
      .merge(['name', 'title', 'body', 'updated_at']);
  }

  async remove(organizationId: string, id: string): Promise<boolean> {
    const rows: unknown[] = await this.db('hi_esign_templates').where({ organization_id: organizationId, id }).delete().returning('id');
    return rows.length > 0;
  }
}
