import type { Knex } from 'knex';

/** Organizations' trust lists: per credential type (compared lower-case), the issuers accepted (issue 25). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_trusted_issuers', (t) => {
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('type_key').notNullable();
    t.text('credential_type').notNullable();
    t.jsonb('issuers').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.primary(['organization_id', 'type_key']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_trusted_issuers');
}
