import type { Knex } from 'knex';

/** Per-organization settings of profile apply: on/off, the listing-page origins, the button. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_profile_apply_settings', (t) => {
    t.text('organization_id').primary().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.boolean('enabled').notNullable().defaultTo(false);
    t.jsonb('allowed_origins').notNullable().defaultTo('[]');
    t.text('button_text').notNullable();
    t.text('theme').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_profile_apply_settings');
}
