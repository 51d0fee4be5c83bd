import type { Knex } from 'knex';

/**
 * job_boards.import_applications (issue 28 §3): each organization's signing secret for boards
 * (encrypted; the former one kept for a grace period after a rotation), the board deliveries
 * already received (replay protection: the delivery id and a hash of its body), and what a
 * board application carries beside its row in hi_profile_applications (the same pipeline):
 * the board, the applicant's contact details, the resume and the board's questions.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_board_secrets', (t) => {
    t.text('organization_id').primary().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('id').notNullable();
    t.text('secret_ciphertext').notNullable();
    t.text('previous_ciphertext');
    t.timestamp('previous_valid_until', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('rotated_at', { useTz: true });
  });
  await knex.schema.createTable('hi_board_deliveries', (t) => {
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('delivery_id').notNullable();
    t.text('body_sha256').notNullable();
    t.text('application_id').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable();
    t.primary(['organization_id', 'delivery_id']);
    t.index(['received_at']);
  });
  await knex.schema.createTable('hi_board_applications', (t) => {
    t.text('application_id').primary().references('id').inTable('hi_profile_applications').onDelete('CASCADE');
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('profile_user_id').notNullable();
    t.text('board').notNullable();
    t.text('board_application_id');
    t.text('email').notNullable();
    t.text('phone');
    t.text('resume_text');
    t.text('resume_file_name');
    t.text('resume_content_type');
    t.binary('resume_file');
    t.jsonb('questions').notNullable().defaultTo('[]');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['organization_id', 'email']);
    t.index(['organization_id', 'profile_user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_board_applications');
  await knex.schema.dropTable('hi_board_deliveries');
  await knex.schema.dropTable('hi_board_secrets');
}
