import type { Knex } from 'knex';

/**
 * Compliance over time (issue 25): the credential each candidate holds for a requirement of a
 * listing (one row per person, listing and requirement: the one expiring last), the expiry
 * notices already sent for it, and each organization's reminder schedule.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_held_credentials', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('profile_user_id').notNullable();
    t.text('listing_id').notNullable();
    t.text('requirement_key').notNullable();
    t.text('credential_type').notNullable();
    t.text('source').notNullable();
    t.text('source_id').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    // Days-before thresholds whose credential.expiring went out for this expiry.
    t.jsonb('expiring_notices').notNullable().defaultTo('[]');
    t.timestamp('expired_notice_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['organization_id', 'profile_user_id', 'listing_id', 'requirement_key']);
    // GET /v1/compliance: an organization's rows in id order (the cursor), filtered by requirement or expiry.
    t.index(['organization_id', 'requirement_key', 'id'], 'hi_held_credentials_requirement');
    t.index(['organization_id', 'expires_at'], 'hi_held_credentials_expiry');
  });
  // The sweep reads only what still owes a notice.
  await knex.raw('CREATE INDEX hi_held_credentials_due ON hi_held_credentials (expires_at) WHERE expired_notice_at IS NULL');
  await knex.schema.createTable('hi_compliance_settings', (t) => {
    t.text('organization_id').primary().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.jsonb('reminder_days').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_compliance_settings');
  await knex.schema.dropTable('hi_held_credentials');
}
