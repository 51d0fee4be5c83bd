/**
 * Compliance over time: credentials held for requirements are recorded with their expiry
 * (a reviewer's approved document today), a sweep sends `credential.expiring` at each
 * reminder threshold and `credential.expired` on the day (once each: the event's dedupe key
 * names the credential, its expiry and the threshold), and a query says who is out of
 * compliance per requirement.
 */
import type { EventPublisher } from '../../../kernel/events';
import type { NotificationConnector } from '../../hooks/domain/connectors';
import type { Entitlements } from '../../licensing/domain/entitlements';
import { newId } from '../../../kernel/ids';
import { messageLanguage, type MessageLanguage } from '../../messages/domain/message-language';
import { EXPIRY_REMINDER_STRINGS, fillReminder } from './expiry-reminder-strings';
import type { HolderLanguages } from './holder-language';
import type { ComplianceSettingsStore } from './compliance-settings';
import type { ComplianceQuery, HeldCredential, HeldCredentialRepository, HeldCredentialVerifier, NewHeldCredential } from './held-credential';
import { DEFAULT_REMINDER_DAYS, dueNotices, MAX_REMINDER_DAYS, statusAt, type ComplianceSettings } from './reminder-schedule';

export const CREDENTIAL_EXPIRING_EVENT = 'credential.expiring';
export const CREDENTIAL_EXPIRED_EVENT = 'credential.expired';
export const CREDENTIAL_REVOKED_EVENT = 'credential.revoked';
export const CREDENTIAL_UNTRUSTED_EVENT = 'credential.untrusted';
/** A kept verifiable credential is verified again once it was last verified this long ago (a day). */
export const REVERIFY_AFTER_MS = 86_400_000;
/** The action that sells compliance over time: its notices and GET /v1/compliance. */
export const COMPLIANCE_TRACKING = 'background_checks.compliance_tracking';
const SWEEP_PAGE = 500;

/** What one sweep did: notices, reminder emails (sent / failed runs), re-verifications and what fell. */
export interface SweepReport {
  expiring: number;
  expired: number;
  reminded: number;
  reminders_failed: number;
  reverified: number;
  revoked: number;
  untrusted: number;
}

export class ComplianceService {
  constructor(
    private readonly held: HeldCredentialRepository,
    private readonly settings: ComplianceSettingsStore,
    private readonly events: EventPublisher,
    private readonly entitlements: Entitlements,
    private readonly now: () => Date,
    private readonly verifier?: () => HeldCredentialVerifier,
    private readonly email?: () => NotificationConnector,
    /** The holder's language, where a feature stores one (employees); else the holder's own (a candidate's application), else English. */
    private readonly holderLanguages?: () => HolderLanguages | undefined,
  ) {}

  async record(credential: NewHeldCredential): Promise<HeldCredential> {
    return this.held.record(credential, newId('hcred'), this.now());
  }

  /** An employee left (or gave up roles): their credentials for them are no longer tracked, so no reminder or notice follows. */
  async forgetEmployee(organizationId: string, employeeId: string, roleIds?: string[]): Promise<number> {
    return this.held.forgetEmployee(organizationId, employeeId, roleIds);
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
    return {
      ...page,
      data: page.data.map((c) => ({ credential: c, status: c.state !== 'active' ? c.state : statusAt(c.expiresAt, now, expiringWithinDays) })),
    };
  }

  /**
   * Sends what is due at `at` (the scheduled job: now; outside production, a test clock may
   * name a later instant). Returns how many events went out.
   */
  async sweep(at: Date = this.now()): Promise<SweepReport> {
    const reverification = await this.reverify(at);
    return { ...(await this.sendExpiryNotices(at)), ...reverification };
  }

  /**
   * Verifies again every kept verifiable credential last verified a day or more before `at`
   * (licensed organizations only): its proof, its issuer's status list (fetched anew) and
   * today's trust list. One that fell is `revoked` or `untrusted` from then on, with its
   * event, once (the state changes only from active, and the event's dedupe key names the
   * credential). One that could not be checked (a list that did not answer) is tried again
   * at the next sweep.
   */
  async reverify(at: Date): Promise<{ reverified: number; revoked: number; untrusted: number }> {
    const counts = { reverified: 0, revoked: 0, untrusted: 0 };
    if (!this.verifier) return counts;
    const verifier = this.verifier();
    const licensed = new Map<string, boolean>();
    let afterId: string | undefined;
    for (;;) {
      const due = await this.held.dueForReverification(new Date(at.getTime() - REVERIFY_AFTER_MS), SWEEP_PAGE, afterId);
      afterId = due[due.length - 1]?.id;
      for (const credential of due) {
        if (!licensed.has(credential.organizationId))
          licensed.set(credential.organizationId, await this.entitlements.isActive(credential.organizationId, COMPLIANCE_TRACKING));
        if (!licensed.get(credential.organizationId)) continue;
        const outcome = await verifier.reverify(credential, at);
        if (outcome.state === 'unavailable') continue;
        counts.reverified++;
        if (outcome.state === 'active') {
          await this.held.markReverified(credential.id, at, { state: 'active', reason: null });
          continue;
        }
        if (!(await this.held.markReverified(credential.id, at, { state: outcome.state, reason: outcome.reason }))) continue;
        const type = outcome.state === 'revoked' ? CREDENTIAL_REVOKED_EVENT : CREDENTIAL_UNTRUSTED_EVENT;
        await this.events.publish(type, credential.organizationId, payload(credential, { reason: outcome.reason, issuer: credential.kept?.issuer ?? null }), {
          dedupeKey: `${type}:${credential.id}:${credential.sourceId}`,
        });
        counts[outcome.state]++;
      }
      if (due.length < SWEEP_PAGE) break;
    }
    return counts;
  }

  private async sendExpiryNotices(at: Date): Promise<{ expiring: number; expired: number; reminded: number; reminders_failed: number }> {
    const sent = { expiring: 0, expired: 0, reminded: 0, reminders_failed: 0 };
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
          if (credential.holder) sent[(await this.remind(credential, notices.expiring, at)) ? 'reminded' : 'reminders_failed']++;
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

  /**
   * Emails the holder that the credential expires in `daysBefore` days, through the
   * organization's email connection as an action run of compliance tracking (once per
   * credential, expiry and lead time: the idempotency key names them). A refused or failed
   * email stays a failed run with its code (retried from the action runs); the notice is
   * recorded all the same, so the sweep goes on.
   */
  private async remind(credential: HeldCredential, daysBefore: number, at: Date): Promise<boolean> {
    if (!this.email || !credential.holder) return false;
    const expiry = credential.expiresAt.toISOString();
    // The days actually left (the sweep may run after the threshold was crossed).
    const daysLeft = Math.max(1, Math.ceil((credential.expiresAt.getTime() - at.getTime()) / 86_400_000));
    try {
      // An employee's language as it is now; else the one the holder's application gave (a candidate's).
      const language = messageLanguage((await this.holderLanguages?.()?.languageOf(credential)) ?? credential.holder.language ?? undefined);
      await this.email().sendEmail({
        organizationId: credential.organizationId,
        actionKey: COMPLIANCE_TRACKING,
        idempotencyKey: `credential-reminder:${credential.id}:${expiry}:${daysBefore}`,
        to: { name: credential.holder.name ?? credential.holder.email, email: credential.holder.email },
        ...expiryReminder(credential, language, expiry.slice(0, 10), daysLeft),
      });
      return true;
    } catch {
      return false;
    }
  }
}

function payload(c: HeldCredential, extra: object) {
  return {
    held_credential_id: c.id,
    subject: c.subject,
    // An employee's credential names the employee and the role (profile_user_id / listing_id carry the same ids).
    employee_id: c.subject === 'employee' ? c.profileUserId : null,
    role_id: c.subject === 'employee' ? c.listingId : null,
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

/** The expiry reminder's subject and text in the holder's language (Content-Language names it). */
function expiryReminder(
  credential: HeldCredential,
  language: MessageLanguage,
  date: string,
  daysLeft: number,
): { subject: string; text: string; language: string } {
  const s = EXPIRY_REMINDER_STRINGS[language.locale];
  const params = {
    name: credential.holder?.name ?? (credential.subject === 'employee' ? s.colleague : s.candidate),
    type: credential.credentialType,
    requirement: credential.requirementKey,
    date,
    days: String(daysLeft),
  };
  return {
    // Line breaks in the organization's words never reach the Subject header.
    subject: fillReminder(s.subject, params).replace(/[\r\n]+/g, ' '),
    text: [
      fillReminder(s.greeting, params),
      '',
      fillReminder(daysLeft === 1 ? s.expires_one : s.expires_other, params),
      credential.subject === 'employee' ? s.renew_employee : s.renew_candidate,
    ].join('\n'),
    language: language.tag,
  };
}
