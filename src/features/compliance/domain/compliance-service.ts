/**
 * Compliance over time: credentials held for requirements are recorded with their expiry
 * (a reviewer's approved document today), a sweep sends `credential.expiring` at each
 * reminder threshold and `credential.expired` on the day (once each: the event's dedupe key
 * names the credential, its expiry and the threshold), and a query says who is out of
 * compliance per requirement.
 */
import type { EventPublisher } from '../../../kernel/events';
import type { Entitlements } from '../../licensing/domain/entitlements';
import { newId } from '../../../kernel/ids';
import type { ComplianceSettingsStore } from './compliance-settings';
import type { ComplianceQuery, HeldCredential, HeldCredentialRepository, NewHeldCredential } from './held-credential';
import { DEFAULT_REMINDER_DAYS, dueNotices, MAX_REMINDER_DAYS, statusAt, type ComplianceSettings } from './reminder-schedule';

export const CREDENTIAL_EXPIRING_EVENT = 'credential.expiring';
export const CREDENTIAL_EXPIRED_EVENT = 'credential.expired';
/** The action that sells compliance over time: its notices and GET /v1/compliance. */
export const COMPLIANCE_TRACKING = 'background_checks.compliance_tracking';
const SWEEP_PAGE = 500;

export class ComplianceService {
  constructor(
    private readonly held: HeldCredentialRepository,
    private readonly settings: ComplianceSettingsStore,
    private readonly events: EventPublisher,
    private readonly entitlements: Entitlements,
    private readonly now: () => Date,
  ) {}

  async record(credential: NewHeldCredential): Promise<HeldCredential> {
    return this.held.record(credential, newId('hcred'), this.now());
  }

  async settingsOf(organizationId: string): Promise<ComplianceSettings> {
    return (await this.settings.get(organizationId)) ?? { reminderDays: DEFAULT_REMINDER_DAYS };
  }

  async putSettings(organizationId: string, settings: ComplianceSettings): Promise<ComplianceSettings> {
    const reminderDays = [...settings.reminderDays].sort((a, b) => b - a);
    await this.settings.put(organizationId, { reminderDays }, this.now());
    return { reminderDays };
  }

  /** A page of the organization's held credentials with their status now ("expiring": within its furthest reminder). */
  async list(query: Omit<ComplianceQuery, 'now' | 'expiringWithinDays'>) {
    await this.entitlements.requireActive(query.organizationId, COMPLIANCE_TRACKING);
    const now = this.now();
    const expiringWithinDays = Math.max(...(await this.settingsOf(query.organizationId)).reminderDays, 0);
    const page = await this.held.list({ ...query, now, expiringWithinDays });
    return { ...page, data: page.data.map((c) => ({ credential: c, status: statusAt(c.expiresAt, now, expiringWithinDays) })) };
  }

  /**
   * Sends what is due at `at` (the scheduled job: now; outside production, a test clock may
   * name a later instant). Returns how many events went out.
   */
  async sweep(at: Date = this.now()): Promise<{ expiring: number; expired: number }> {
    const sent = { expiring: 0, expired: 0 };
    let after: HeldCredential | undefined;
    for (;;) {
      const due = await this.held.dueForNotices(at, MAX_REMINDER_DAYS, SWEEP_PAGE, after);
      after = due[due.length - 1];
      const organizations = [...new Set(due.map((c) => c.organizationId))];
      const settings = await this.settings.getMany(organizations);
      // An organization without the license hears nothing (its notices wait, unmarked, for a license).
      const licensed = new Set(
        (await Promise.all(organizations.map(async (o) => ((await this.entitlements.isActive(o, COMPLIANCE_TRACKING)) ? o : null)))).filter(Boolean),
      );
      for (const credential of due) {
        if (!licensed.has(credential.organizationId)) continue;
        const reminderDays = settings.get(credential.organizationId)?.reminderDays ?? DEFAULT_REMINDER_DAYS;
        const notices = dueNotices(credential, at, reminderDays);
        if (notices.expiring === null && !notices.expired && notices.covered.length === credential.expiringNotices.length) continue;
        const expiry = credential.expiresAt.toISOString();
        if (notices.expiring !== null) {
          await this.events.publish(CREDENTIAL_EXPIRING_EVENT, credential.organizationId, payload(credential, { days_before: notices.expiring }), {
            dedupeKey: `${CREDENTIAL_EXPIRING_EVENT}:${credential.id}:${expiry}:${notices.expiring}`,
          });
          sent.expiring++;
        }
        if (notices.expired) {
          await this.events.publish(CREDENTIAL_EXPIRED_EVENT, credential.organizationId, payload(credential, {}), {
            dedupeKey: `${CREDENTIAL_EXPIRED_EVENT}:${credential.id}:${expiry}`,
          });
          sent.expired++;
        }
        await this.held.markNoticed(credential.id, credential.expiresAt, {
          expiring: notices.covered,
          expiredAt: notices.expired ? at : credential.expiredNoticeAt,
        });
      }
      if (due.length < SWEEP_PAGE) break;
    }
    return sent;
  }
}

function payload(c: HeldCredential, extra: object) {
  return {
    held_credential_id: c.id,
    profile_user_id: c.profileUserId,
    listing_id: c.listingId,
    requirement: c.requirementKey,
    credential_type: c.credentialType,
    source: c.source,
    source_id: c.sourceId,
    expires_at: c.expiresAt.toISOString(),
    ...extra,
  };
}
