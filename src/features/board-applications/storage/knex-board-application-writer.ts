/**
 * Board applications on knex, in one transaction: the delivery id (hi_board_deliveries, once
 * per organization), the application row in hi_profile_applications (the same table and
 * uniqueness as profile applications: once per organization, listing and candidate, and
 * none when an application to the listing has the same contact email), its
 * details (hi_board_applications) and its pipeline-delivery outbox message. Conflicts are
 * `ON CONFLICT DO NOTHING`, so a duplicate never aborts the transaction half way.
 */
import { applicationRow } from '../../applications/storage/application-repository';
import type { ProfileApplication } from '../../applications/domain/application';
import type { OutboxMessage } from '../../../kernel/outbox';
import type { Database } from '../../../platform/database/database';
import { outboxRows } from '../../../platform/queue/outbox-rows';
import type { BoardApplicationDetails, BoardApplicationWriter, BoardDelivery, StoreOutcome } from '../domain/board-application';

export class KnexBoardApplicationWriter implements BoardApplicationWriter {
  constructor(private readonly db: Database) {}

  async forgetDeliveries(organizationId: string, before: Date): Promise<void> {
    await this.db('hi_board_deliveries').where({ organization_id: organizationId }).where('received_at', '<', before).delete();
  }

  store(delivery: BoardDelivery, application: ProfileApplication, details: BoardApplicationDetails, messages: readonly OutboxMessage[]): Promise<StoreOutcome> {
    return this.db.transaction(async (trx) => {
      const recorded = await trx('hi_board_deliveries')
        .insert({
          organization_id: delivery.organizationId,
          delivery_id: delivery.deliveryId,
          body_sha256: delivery.bodySha256,
          application_id: application.id,
          received_at: delivery.receivedAt,
        })
        .onConflict(['organization_id', 'delivery_id'])
        .ignore()
        .returning('delivery_id');
      if (recorded.length === 0) {
        const first = await trx('hi_board_deliveries').where({ organization_id: delivery.organizationId, delivery_id: delivery.deliveryId }).first();
        return { outcome: 'replayed', applicationId: first.application_id as string, sameBody: first.body_sha256 === delivery.bodySha256 };
      }
      // The same person (email) already applied to this listing, with their profile or through a board.
      const sameEmail = await trx('hi_profile_applications')
        .select('id')
        .where({ organization_id: application.organizationId, listing_id: application.listingId, contact_email: details.email })
        .orderBy('seq')
        .first();
      if (sameEmail) {
        await trx('hi_board_deliveries')
          .where({ organization_id: delivery.organizationId, delivery_id: delivery.deliveryId })
          .update({ application_id: sameEmail.id });
        return { outcome: 'duplicate', applicationId: sameEmail.id as string };
      }
      const inserted = await trx('hi_profile_applications')
        .insert(applicationRow(application))
        .onConflict(['organization_id', 'listing_id', 'profile_user_id'])
        .ignore()
        .returning('id');
      if (inserted.length === 0) {
        const existing = await trx('hi_profile_applications')
          .select('id')
          .where({ organization_id: application.organizationId, listing_id: application.listingId, profile_user_id: application.profileUserId })
          .first();
        await trx('hi_board_deliveries')
          .where({ organization_id: delivery.organizationId, delivery_id: delivery.deliveryId })
          .update({ application_id: existing.id });
        return { outcome: 'duplicate', applicationId: existing.id as string };
      }
      await trx('hi_board_applications').insert({
        application_id: details.applicationId,
        organization_id: details.organizationId,
        profile_user_id: details.profileUserId,
        board: details.board,
        board_application_id: details.boardApplicationId,
        email: details.email,
        phone: details.phone,
        resume_text: details.resumeText,
        resume_file_name: details.resumeFile?.fileName ?? null,
        resume_content_type: details.resumeFile?.contentType ?? null,
        resume_file: details.resumeFile?.data ?? null,
        questions: JSON.stringify(details.questions),
        created_at: details.createdAt,
      });
      if (messages.length > 0) await trx('hi_outbox').insert(outboxRows(messages));
      return { outcome: 'created', applicationId: application.id };
    });
  }
}
