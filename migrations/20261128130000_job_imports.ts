import type { Knex } from 'knex';

/**
 * job_import.import_jobs (issue 28 §2): the feeds an organization imports listings from (URL,
 * format, interval, and what the last import left: its HTTP validators and the external ids
 * it carried), and each import with its per-job error report. No candidate data: listings.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_job_import_feeds', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('url').notNullable();
    t.text('format').notNullable();
    t.integer('interval_minutes').notNullable();
    t.text('etag');
    t.text('last_modified');
    t.jsonb('external_ids').notNullable().defaultTo('[]');
    t.timestamp('next_run_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['organization_id', 'created_at']);
    t.index(['next_run_at']);
    t.check("format in ('xml', 'json')", [], 'hi_job_import_feeds_format');
  });
  await knex.schema.createTable('hi_job_imports', (t) => {
    t.text('id').primary();
    t.bigIncrements('seq', { primaryKey: false });
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('feed_id').notNullable().references('id').inTable('hi_job_import_feeds').onDelete('CASCADE');
    t.text('trigger').notNullable();
    t.text('status').notNullable();
    t.boolean('not_modified').notNullable().defaultTo(false);
    t.text('run_id');
    t.integer('jobs').notNullable().defaultTo(0);
    t.integer('created').notNullable().defaultTo(0);
    t.integer('updated').notNullable().defaultTo(0);
    t.integer('closed').notNullable().defaultTo(0);
    t.integer('error_count').notNullable().defaultTo(0);
    t.jsonb('errors').notNullable().defaultTo('[]');
    t.text('error_code');
    t.text('error_message');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('finished_at', { useTz: true });
    t.index(['organization_id', 'feed_id', 'seq']);
    t.check("status in ('queued', 'running', 'succeeded', 'failed')", [], 'hi_job_imports_status');
    t.check("trigger in ('api', 'schedule')", [], 'hi_job_imports_trigger');
  });
  // One import of a feed at a time: a second request while one is pending finds that one.
  await knex.raw("create unique index hi_job_imports_one_pending on hi_job_imports (feed_id) where status in ('queued', 'running')");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_job_imports');
  await knex.schema.dropTable('hi_job_import_feeds');
}
