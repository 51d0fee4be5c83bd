import type { Knex } from 'knex';

/**
 * E-signature (esign.send_offer, esign.send_agreement): each organization's document
 * templates, its signing certificate (a PKCS#12, sealed with the credentials cipher), and the
 * envelopes sent to signers: the document as shown, the signature, the audit events (IP, user
 * agent) and the final signed PDF. Signer data is candidate data (registered for export and
 * erasure).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_esign_templates', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.text('name').notNullable();
    t.text('title').notNullable();
    t.text('body').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.check("kind in ('offer', 'agreement')", [], 'hi_esign_templates_kind');
    t.index(['organization_id', 'kind', 'created_at'], 'hi_esign_templates_kind_idx');
  });
  await knex.schema.createTable('hi_esign_certificates', (t) => {
    t.text('organization_id').primary().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('source').notNullable();
    t.text('sealed_p12').notNullable();
    t.text('sealed_passphrase').notNullable();
    t.text('subject').notNullable();
    t.text('fingerprint_sha256').notNullable();
    t.timestamp('not_after', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.check("source in ('uploaded', 'generated')", [], 'hi_esign_certificates_source');
  });
  await knex.schema.createTable('hi_esign_envelopes', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.text('reference_id').notNullable();
    t.text('source_key');
    t.text('template_id');
    t.text('title').notNullable();
    t.text('document_text').notNullable();
    t.binary('document').notNullable();
    t.text('document_sha256').notNullable();
    t.text('signer_name').notNullable();
    t.text('signer_email').notNullable();
    t.text('signer_phone');
    t.text('language').notNullable();
    t.text('status').notNullable();
    t.text('signature_method');
    t.text('signature_typed_name');
    t.binary('signature_image');
    t.text('decline_reason');
    t.binary('signed_document');
    t.text('signed_document_sha256');
    t.jsonb('events').notNullable();
    t.text('email_run_id');
    t.text('sms_run_id');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('completed_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.check("kind in ('offer', 'agreement')", [], 'hi_esign_envelopes_kind');
    t.check("status in ('sent', 'signed', 'declined', 'voided', 'expired')", [], 'hi_esign_envelopes_status');
    t.unique(['organization_id', 'source_key'], { indexName: 'hi_esign_envelopes_source' });
    t.index(['organization_id', 'reference_id'], 'hi_esign_envelopes_reference');
    t.index(['status', 'expires_at'], 'hi_esign_envelopes_due');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('hi_esign_envelopes');
  await knex.schema.dropTableIfExists('hi_esign_certificates');
  await knex.schema.dropTableIfExists('hi_esign_templates');
}
