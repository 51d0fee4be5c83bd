import type { Knex } from 'knex';

/**
 * E-signature settings per organization: the RFC 3161 time-stamp authority its signatures are
 * time-stamped by (PAdES-B-T); no row, or no URL, signs at PAdES-B-B. No person's data.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_esign_settings', (t) => {
    t.text('organization_id').primary().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('timestamp_authority_url');
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('hi_esign_settings');
}
