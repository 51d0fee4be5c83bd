import type { Knex } from 'knex';

/**
 * Verifiable credentials held over time (issue 25): a credential presented through the
 * verification actions is kept (its JWT or JSON) so the compliance sweep can verify it again
 * on schedule (status list re-fetched, trust list re-read); its state says whether it still
 * counts (`active`), was `revoked` (or suspended) by its issuer, or its issuer is no longer
 * `untrusted`. Rows from reviewed documents keep no credential and stay `active`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_held_credentials', (t) => {
    t.text('credential_format');
    t.text('credential');
    t.text('issuer');
    t.text('state').notNullable().defaultTo('active');
    t.text('state_reason');
    t.timestamp('state_changed_at', { useTz: true });
    t.timestamp('verified_at', { useTz: true });
  });
  // The sweep reads only what is due for another verification.
  await knex.raw("CREATE INDEX hi_held_credentials_reverify ON hi_held_credentials (verified_at, id) WHERE state = 'active' AND credential IS NOT NULL");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS hi_held_credentials_reverify');
  await knex.schema.alterTable('hi_held_credentials', (t) => {
    t.dropColumn('credential_format');
    t.dropColumn('credential');
    t.dropColumn('issuer');
    t.dropColumn('state');
    t.dropColumn('state_reason');
    t.dropColumn('state_changed_at');
    t.dropColumn('verified_at');
  });
}
