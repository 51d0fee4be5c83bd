import type { Knex } from 'knex';

/**
 * Reminders to sign: each organization's schedule (on `hi_esign_settings`; null columns read as
 * the defaults: on, first after 2 days, then every 3, and a notice a day before expiry), and on
 * each envelope the due time of the last reminder claimed (one UPDATE claims a slot, so two
 * sweeps send it once) and the reminders sent (kind, time, the action runs). No new person's data.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_esign_settings', (t) => {
    t.boolean('reminders_enabled');
    t.integer('reminder_first_after_days');
    t.integer('reminder_every_days');
    t.boolean('reminder_expiry_notice');
    t.check('reminder_first_after_days between 1 and 30', [], 'hi_esign_settings_reminder_first');
    t.check('reminder_every_days between 1 and 30', [], 'hi_esign_settings_reminder_every');
  });
  await knex.schema.alterTable('hi_esign_envelopes', (t) => {
    t.timestamp('reminder_due_at', { useTz: true });
    t.jsonb('reminders').notNullable().defaultTo(knex.raw(`'[]'::jsonb`));
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_esign_envelopes', (t) => {
    t.dropColumn('reminders');
    t.dropColumn('reminder_due_at');
  });
  await knex.schema.alterTable('hi_esign_settings', (t) => {
    t.dropChecks(['hi_esign_settings_reminder_first', 'hi_esign_settings_reminder_every']);
    t.dropColumn('reminder_expiry_notice');
    t.dropColumn('reminder_every_days');
    t.dropColumn('reminder_first_after_days');
    t.dropColumn('reminders_enabled');
  });
}
