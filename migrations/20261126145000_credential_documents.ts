import type { Knex } from 'knex';

/** Documents uploaded for a credential requirement and their human review (issue 25); the file itself lives encrypted in the blob store. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_credential_documents', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('application_id').notNullable();
    t.text('listing_id').notNullable();
    t.text('profile_user_id').notNullable();
    t.text('requirement_key').notNullable();
    t.text('credential_type').notNullable();
    t.text('file_name').notNullable();
    t.text('media_type').notNullable();
    t.integer('size_bytes').notNullable();
    t.text('sha256').notNullable();
    t.text('status').notNullable();
    t.timestamp('expires_at', { useTz: true });
    t.text('rejection_reason');
    t.text('reviewed_by');
    t.timestamp('reviewed_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['organization_id', 'application_id']);
    t.index(['organization_id', 'profile_user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_credential_documents');
}
