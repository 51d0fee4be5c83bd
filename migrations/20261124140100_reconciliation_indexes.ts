import type { Knex } from 'knex';

/**
 * What the reconciliation sweep looks for, found without a scan: licenses still
 * provisioning, applications not yet delivered, reminders still scheduled.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create index hi_licenses_provisioning on hi_licenses (created_at) where status = 'provisioning'`);
  await knex.raw('create index hi_profile_applications_undelivered on hi_profile_applications (created_at) where delivered_at is null');
  await knex.raw(`create index hi_interview_reminders_scheduled on hi_interview_reminders (remind_at) where status = 'scheduled'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index hi_interview_reminders_scheduled');
  await knex.raw('drop index hi_profile_applications_undelivered');
  await knex.raw('drop index hi_licenses_provisioning');
}
