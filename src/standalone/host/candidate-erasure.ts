/**
 * What every host must do on `candidate.erased`, done by the standalone host: its own
 * copies of the candidate (pipeline rows, the hook log kept for the demo pages) go. The
 * plugin's registry covers the plugin's tables; these are the host's, listed here so the
 * registry's completeness test knows each host table is accounted for.
 */
import type { Disposer } from '../../kernel/disposer';
import type { Database } from '../../platform/database/database';
import type { InProcessHookBus } from './hook-bus';

/** Every table of the standalone host's migrations, and who erases what in it. */
export const HOST_TABLES: Record<string, string> = {
  host_knex_migrations: "knex's record of the host's migrations: no candidate data",
  host_knex_migrations_lock: "knex's migration lock row: no candidate data",
  host_listings: 'Listings: no candidate data',
  host_pipeline_applications: 'Delivered applications: deleted by the host on candidate.erased (eraseOnCandidateErased)',
};

export function eraseOnCandidateErased(db: Database, hooks: InProcessHookBus): Disposer {
  return hooks.on('candidate.erased', async ({ organizationId, payload }) => {
    const profileUserId = payload.profile_user_id;
    if (typeof profileUserId !== 'string') return;
    await db('host_pipeline_applications').where({ organization_id: organizationId, profile_user_id: profileUserId }).delete();
    const needle = JSON.stringify(profileUserId);
    // The erasure notice itself stays in the log; every other event naming the candidate goes.
    for (let i = hooks.recent.length - 1; i >= 0; i--) {
      const event = hooks.recent[i]!;
      if (event.organizationId === organizationId && event.hook !== 'candidate.erased' && JSON.stringify(event.payload).includes(needle))
        hooks.recent.splice(i, 1);
    }
  });
}
