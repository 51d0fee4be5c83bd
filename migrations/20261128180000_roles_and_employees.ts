import type { Knex } from 'knex';

/**
 * Employees' roles and their credential requirements (issue 25 §1, §4): roles with the same
 * requirement model as listings, the employees the host names with their roles, documents
 * employees upload through a signed link for review, and which kind of person a held
 * credential belongs to (a candidate for a listing, or an employee for a role).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_roles', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('name').notNullable();
    t.jsonb('requirements').notNullable().defaultTo('[]');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['organization_id', 'id']);
  });
  await knex.schema.createTable('hi_employees', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    // The host's own id for the employee (its HRIS), unique in the organization.
    t.text('external_id').notNullable();
    t.text('name').notNullable();
    t.text('email').notNullable();
    t.text('phone');
    t.text('language').notNullable().defaultTo('en');
    t.jsonb('role_ids').notNullable().defaultTo('[]');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['organization_id', 'external_id']);
    t.index(['organization_id', 'id']);
  });
  await knex.schema.createTable('hi_employee_documents', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('employee_id').notNullable().references('id').inTable('hi_employees').onDelete('CASCADE');
    t.text('role_id').notNullable();
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
    t.index(['organization_id', 'employee_id']);
  });
  await knex.schema.alterTable('hi_held_credentials', (t) => {
    // candidate: profile_user_id / listing_id are the candidate and listing; employee: the employee and role.
    t.text('subject').notNullable().defaultTo('candidate');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex('hi_held_credentials').where({ subject: 'employee' }).delete();
  await knex.schema.alterTable('hi_held_credentials', (t) => t.dropColumn('subject'));
  await knex.schema.dropTable('hi_employee_documents');
  await knex.schema.dropTable('hi_employees');
  await knex.schema.dropTable('hi_roles');
}
