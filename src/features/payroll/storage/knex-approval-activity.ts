/** Which organizations had timesheets approved in a window (read from the timesheets feature's table, for the hours sweep). */
import type { Database } from '../../../platform/database/database';
import type { ApprovalActivity } from '../domain/hours-batches';

export class KnexApprovalActivity implements ApprovalActivity {
  constructor(private readonly db: Database) {}

  async organizationsWithApprovals(since: Date, before: Date): Promise<string[]> {
    const rows = (await this.db('hi_timesheets')
      .distinct('organization_id')
      .where({ status: 'approved' })
      .where('decided_at', '>=', since)
      .where('decided_at', '<', before)
      .orderBy('organization_id')) as { organization_id: string }[];
    return rows.map((r) => r.organization_id);
  }
}
