import type { ChannelRepository, ChannelViews, DistributionChannel } from '../domain/channel';
import { isUniqueViolation, type Database } from '../../../platform/database/database';

interface ChannelRow {
  id: string;
  organization_id: string;
  name: string;
  created_at: Date;
}

const fromRow = (row: ChannelRow): DistributionChannel => ({
  id: row.id,
  organizationId: row.organization_id,
  name: row.name,
  createdAt: new Date(row.created_at),
});

export class KnexChannelRepository implements ChannelRepository {
  constructor(private readonly db: Database) {}

  async create(channel: DistributionChannel): Promise<boolean> {
    try {
      await this.db('hi_distribution_channels').insert({
        id: channel.id,
        organization_id: channel.organizationId,
        name: channel.name,
        created_at: channel.createdAt,
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async list(organizationId: string): Promise<DistributionChannel[]> {
    const rows = await this.db<ChannelRow>('hi_distribution_channels').where({ organization_id: organizationId }).orderBy('name');
    return rows.map(fromRow);
  }

  async findByName(organizationId: string, name: string): Promise<DistributionChannel | undefined> {
    const row = await this.db<ChannelRow>('hi_distribution_channels').where({ organization_id: organizationId, name }).first();
    return row ? fromRow(row) : undefined;
  }

  async delete(organizationId: string, channelId: string): Promise<boolean> {
    // The deleted rows, not a count: the embedded database's driver reports no count.
    const rows = await this.db('hi_distribution_channels').where({ organization_id: organizationId, id: channelId }).del().returning('id');
    return rows.length > 0;
  }

  async countView(organizationId: string, channel: string, listingId: string): Promise<void> {
    await this.db.raw(
      `insert into hi_distribution_views (organization_id, channel, listing_id, views) values (?, ?, ?, 1)
       on conflict (organization_id, channel, listing_id) do update set views = hi_distribution_views.views + 1`,
      [organizationId, channel, listingId],
    );
  }

  async views(organizationId: string): Promise<ChannelViews[]> {
    const rows: { channel: string; listing_id: string; views: string | number }[] = await this.db('hi_distribution_views').where({
      organization_id: organizationId,
    });
    return rows.map((r) => ({ channel: r.channel, listingId: r.listing_id, views: Number(r.views) }));
  }
}
