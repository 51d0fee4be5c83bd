import type { Knex } from 'knex';

/**
 * Candidates' data-rights requests. An export keeps the document it built until it
 * expires. An erasure keeps the candidate's id only while it runs (its job payload names
 * the erasure, not the candidate); once done, only a keyed digest of the id remains, so
 * the record proves an erasure happened without holding what was erased. A legal hold
 * blocks erasure and retention of one candidate of one organization.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_candidate_exports', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('profile_user_id').notNullable();
    // Emails and phones the request named (stores filled from hooks know the candidate by them).
    t.jsonb('contacts').notNullable();
    t.text('status').notNullable();
    t.jsonb('document');
    t.text('failure_reason');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('completed_at', { useTz: true });
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.check("status in ('pending', 'succeeded', 'failed')", [], 'hi_candidate_exports_status');
    t.index(['organization_id', 'profile_user_id']);
    t.index(['expires_at']);
  });
  await knex.schema.createTable('hi_candidate_erasures', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('subject_digest').notNullable();
    // Cleared when the erasure completes.
    t.text('profile_user_id');
    t.jsonb('contacts');
    t.text('status').notNullable();
    // Store name -> rows erased, written as each store finishes: a resumed job skips them.
    t.jsonb('progress').notNullable().defaultTo('{}');
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('completed_at', { useTz: true });
    t.check("status in ('pending', 'succeeded')", [], 'hi_candidate_erasures_status');
    t.check("status = 'pending' or (profile_user_id is null and contacts is null)", [], 'hi_candidate_erasures_forgets');
    t.index(['organization_id', 'subject_digest']);
  });
  // At most one erasure in progress per candidate: a second request joins it.
  await knex.raw(`create unique index hi_candidate_erasures_one_pending on hi_candidate_erasures (organization_id, subject_digest) where status = 'pending'`);
  await knex.schema.createTable('hi_legal_holds', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('profile_user_id').notNullable();
    t.text('reason').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('released_at', { useTz: true });
    t.index(['organization_id', 'profile_user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_legal_holds');
  await knex.schema.dropTable('hi_candidate_erasures');
  await knex.schema.dropTable('hi_candidate_exports');
}
