/** Held credentials on knex. */
import type { Database } from '../../../platform/database/database';
import { fromJson } from '../../../platform/database/json-column';
import type {
  ComplianceQuery,
  HeldCredential,
  HeldCredentialRepository,
  HeldCredentialSource,
  HeldCredentialState,
  HeldCredentialSubject,
  KeptCredential,
  NewHeldCredential,
} from '../domain/held-credential';

const TABLE = 'hi_held_credentials';
const DAY_MS = 86_400_000;

interface Row {
  id: string;
  organization_id: string;
  subject: string;
  profile_user_id: string;
  listing_id: string;
  requirement_key: string;
  credential_type: string;
  source: string;
  source_id: string;
  expires_at: Date;
  expiring_notices: unknown;
  expired_notice_at: Date | null;
  credential_format: string | null;
  credential: string | null;
  issuer: string | null;
  state: string;
  state_reason: string | null;
  verified_at: Date | null;
  holder_name: string | null;
  holder_email: string | null;
  holder_language?: string | null;
  created_at: Date;
  updated_at: Date;
}

const fromRow = (r: Row): HeldCredential => ({
  id: r.id,
  organizationId: r.organization_id,
  subject: (r.subject ?? 'candidate') as HeldCredentialSubject,
  profileUserId: r.profile_user_id,
  listingId: r.listing_id,
  requirementKey: r.requirement_key,
  credentialType: r.credential_type,
  source: r.source as HeldCredentialSource,
  sourceId: r.source_id,
  expiresAt: new Date(r.expires_at),
  expiringNotices: fromJson<number[]>(r.expiring_notices),
  expiredNoticeAt: r.expired_notice_at ? new Date(r.expired_notice_at) : null,
  kept:
    r.credential && r.credential_format && r.issuer
      ? { format: r.credential_format as KeptCredential['format'], credential: r.credential, issuer: r.issuer }
      : null,
  state: r.state as HeldCredentialState,
  stateReason: r.state_reason,
  verifiedAt: r.verified_at ? new Date(r.verified_at) : null,
  holder: r.holder_email ? { name: r.holder_name, email: r.holder_email, language: r.holder_language ?? null } : null,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

export class KnexHeldCredentials implements HeldCredentialRepository {
  constructor(private readonly db: Database) {}

  async record(c: NewHeldCredential, id: string, now: Date): Promise<HeldCredential> {
    const row = {
      id,
      organization_id: c.organizationId,
      subject: c.subject ?? 'candidate',
      profile_user_id: c.profileUserId,
      listing_id: c.listingId,
      requirement_key: c.requirementKey,
      credential_type: c.credentialType,
      source: c.source,
      source_id: c.sourceId,
      expires_at: c.expiresAt,
      expiring_notices: JSON.stringify([]),
      expired_notice_at: null,
      credential_format: c.kept?.format ?? null,
      credential: c.kept?.credential ?? null,
      issuer: c.kept?.issuer ?? null,
      // A kept credential was verified when it was presented, now.
      verified_at: c.kept ? now : null,
      holder_name: c.holder?.name ?? null,
      holder_email: c.holder?.email ?? null,
      holder_language: c.holder?.language ?? null,
      created_at: now,
      updated_at: now,
    };
    // One statement: a credential expiring later replaces the one held (its notices start over); an earlier one changes nothing.
    await this.db.raw(
      `INSERT INTO ${TABLE} AS h (id, organization_id, profile_user_id, listing_id, requirement_key, credential_type, source, source_id,
         expires_at, expiring_notices, expired_notice_at, credential_format, credential, issuer, state, verified_at, holder_name, holder_email, holder_language, subject, created_at, updated_at)
       VALUES (:id, :organization_id, :profile_user_id, :listing_id, :requirement_key, :credential_type, :source, :source_id,
         :expires_at, :expiring_notices::jsonb, NULL, :credential_format, :credential, :issuer, 'active', :verified_at, :holder_name, :holder_email, :holder_language, :subject, :created_at, :updated_at)
       ON CONFLICT (organization_id, profile_user_id, listing_id, requirement_key) DO UPDATE SET
         credential_type = excluded.credential_type, source = excluded.source, source_id = excluded.source_id,
         expires_at = excluded.expires_at, expiring_notices = '[]'::jsonb, expired_notice_at = NULL,
         credential_format = excluded.credential_format, credential = excluded.credential, issuer = excluded.issuer,
         state = 'active', state_reason = NULL, state_changed_at = NULL, verified_at = excluded.verified_at,
         holder_name = excluded.holder_name, holder_email = excluded.holder_email, holder_language = excluded.holder_language, updated_at = excluded.updated_at
       WHERE excluded.expires_at > h.expires_at OR h.state <> 'active'`,
      row,
    );
    const stored = await this.db<Row>(TABLE)
      .where({ organization_id: c.organizationId, profile_user_id: c.profileUserId, listing_id: c.listingId, requirement_key: c.requirementKey })
      .first();
    return fromRow(stored as Row);
  }

  async find(organizationId: string, id: string): Promise<HeldCredential | undefined> {
    const row = await this.db<Row>(TABLE).where({ organization_id: organizationId, id }).first();
    return row ? fromRow(row) : undefined;
  }

  async dueForNotices(now: Date, horizonDays: number, limit: number, after?: Pick<HeldCredential, 'expiresAt' | 'id'>): Promise<HeldCredential[]> {
    // A revoked or untrusted credential owes no expiry notices: it already does not count.
    const query = this.db<Row>(TABLE)
      .whereNull('expired_notice_at')
      .where({ state: 'active' })
      .where('expires_at', '<=', new Date(now.getTime() + horizonDays * DAY_MS))
      .orderBy([{ column: 'expires_at' }, { column: 'id' }])
      .limit(limit);
    if (after) query.whereRaw('(expires_at, id) > (?, ?)', [after.expiresAt, after.id]);
    return (await query).map(fromRow);
  }

  async markNoticed(id: string, expiresAt: Date, notices: { expiring: number[]; expiredAt: Date | null }): Promise<void> {
    await this.db(TABLE)
      .where({ id, expires_at: expiresAt })
      .update({ expiring_notices: JSON.stringify(notices.expiring), expired_notice_at: notices.expiredAt });
  }

  async dueForReverification(before: Date, limit: number, afterId?: string): Promise<HeldCredential[]> {
    const query = this.db<Row>(TABLE)
      .where({ state: 'active' })
      .whereNotNull('credential')
      .where((w) => w.whereNull('verified_at').orWhere('verified_at', '<', before))
      .orderBy('id')
      .limit(limit);
    if (afterId) query.where('id', '>', afterId);
    return (await query).map(fromRow);
  }

  async markReverified(id: string, at: Date, outcome: { state: HeldCredentialState; reason: string | null }): Promise<boolean> {
    const changes =
      outcome.state === 'active'
        ? { verified_at: at, updated_at: at }
        : { state: outcome.state, state_reason: outcome.reason, state_changed_at: at, updated_at: at };
    return (await this.db(TABLE).where({ id, state: 'active' }).update(changes)) > 0;
  }

  async forgetEmployee(organizationId: string, employeeId: string, roleIds?: string[]): Promise<number> {
    const query = this.db(TABLE).where({ organization_id: organizationId, subject: 'employee', profile_user_id: employeeId });
    if (roleIds) query.whereIn('listing_id', roleIds);
    return query.delete();
  }

  async list(q: ComplianceQuery): Promise<{ data: HeldCredential[]; hasMore: boolean }> {
    const query = this.db<Row>(TABLE).where({ organization_id: q.organizationId });
    if (q.requirementKey) query.where({ requirement_key: q.requirementKey });
    if (q.listingId) query.where({ listing_id: q.listingId });
    if (q.profileUserId) query.where({ profile_user_id: q.profileUserId });
    if (q.subject) query.where({ subject: q.subject });
    const expiringBefore = new Date(q.now.getTime() + q.expiringWithinDays * DAY_MS);
    // A revoked or untrusted credential reads so whatever its expiry; the expiry statuses are for active ones.
    if (q.status === 'revoked' || q.status === 'untrusted') query.where({ state: q.status });
    else if (q.status) query.where({ state: 'active' });
    if (q.status === 'expired') query.where('expires_at', '<=', q.now);
    if (q.status === 'expiring') query.where('expires_at', '>', q.now).where('expires_at', '<=', expiringBefore);
    if (q.status === 'compliant') query.where('expires_at', '>', expiringBefore);
    if (q.startingAfter) query.where('id', '>', q.startingAfter);
    const rows = await query.orderBy('id').limit(q.limit + 1);
    return { data: rows.slice(0, q.limit).map(fromRow), hasMore: rows.length > q.limit };
  }
}
