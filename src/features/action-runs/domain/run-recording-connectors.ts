/**
 * The connector ports the hook handlers inject: each call finds the organization's
 * implementation (ConnectorResolver) and performs the step as an action run (ActionRunner).
 * The answer's deliveryId is the run id; `reference` is the counterpart's acknowledgment;
 * `livemode` is false when a test-mode sandbox answered.
 */
import type {
  Delivery,
  DeliveredFile,
  DeliveryBase,
  DownloadDelivery,
  EmailMessage,
  EmployeeDeactivation,
  EmployeeRecord,
  HrisConnector,
  Meeting,
  MeetingRequest,
  NotificationConnector,
  PayoutConnector,
  PayoutMoney,
  PayoutMovement,
  PayoutOnboarding,
  PayoutWorker,
  PayrollFile,
  PayrollFileConnector,
  PosConnector,
  PosDeactivation,
  PosTeamMember,
  SmsConnector,
  SmsMessage,
  StreamedFile,
  SyncedEmployee,
  SyncedTeamMember,
  VideoMeetingConnector,
} from '../../hooks/domain/connectors';
import type { ConnectorKind, PortsByKind } from '../../connections/domain/connector-definition';
import type { ConnectorResolver, ResolvedPort } from '../../connections/domain/connector-resolver';
import { DomainError, isDomainError } from '../../../kernel/errors';
import type { ActionRunner } from './action-runner';

export class RunRecordingConnectors
  implements NotificationConnector, SmsConnector, VideoMeetingConnector, HrisConnector, PayrollFileConnector, PayoutConnector, PosConnector, DownloadDelivery
{
  constructor(
    private readonly resolver: ConnectorResolver,
    private readonly runner: ActionRunner,
    /** The hook whose handler declares this step for the action (the hook registry), for the runs API's `hook` filter. */
    private readonly hookOf: (action: string, step: string) => string | null = () => null,
    /** Numbers that replied STOP: the SMS step fails with recipient_opted_out before anything leaves. */
    private readonly smsOptOuts: () => { requireReachable(organizationId: string, phone: string): Promise<void> } | undefined = () => undefined,
  ) {}

  /** The organization's payroll_files or pos connection is a download one (nothing is delivered). */
  deliversByDownload(organizationId: string, kind: 'payroll_files' | 'pos'): Promise<boolean> {
    return this.resolver.deliversByDownload(organizationId, kind);
  }

  async sendEmail(m: EmailMessage): Promise<Delivery> {
    return this.deliver('email', m, (port) => port.sendEmail(m));
  }

  async sendSms(m: SmsMessage): Promise<Delivery> {
    return this.deliver('sms', m, async (port) => {
      await this.smsOptOuts()?.requireReachable(m.organizationId, m.to);
      return port.sendSms(m);
    });
  }

  async createMeeting(r: MeetingRequest): Promise<Meeting> {
    // Participant links name people and carry tokens: they pass through from the call, never into the run.
    let participants: Meeting['participants'];
    const { delivery, answer } = await this.perform('video_meetings', r, async (port) => {
      const meeting = await port.createMeeting(r);
      participants = meeting.participants;
      return { reference: meeting.meetingId, answer: { meetingId: meeting.meetingId, joinUrl: meeting.joinUrl } };
    });
    return { ...delivery, meetingId: String(answer.meetingId), joinUrl: String(answer.joinUrl), ...(participants ? { participants } : {}) };
  }

  async syncEmployee(r: EmployeeRecord): Promise<SyncedEmployee> {
    const { delivery, answer } = await this.perform('hris', r, async (port) => {
      const employee = await port.syncEmployee(r);
      return { reference: employee.employeeId, answer: { employeeId: employee.employeeId } };
    });
    return { ...delivery, employeeId: String(answer.employeeId) };
  }

  async deactivateEmployee(r: EmployeeDeactivation): Promise<SyncedEmployee> {
    const { delivery, answer } = await this.perform('hris', r, async (port) => {
      if (!port.deactivateEmployee) throw new DomainError('conflict', 'connector_unsupported', 'The HRIS connector in use cannot deactivate employees');
      const employee = await port.deactivateEmployee(r);
      return { reference: employee.employeeId, answer: { employeeId: employee.employeeId } };
    });
    return { ...delivery, employeeId: String(answer.employeeId) };
  }

  /** The run's reference is the file's checksum (`sha256:<hex>`): what the counterpart was given, verifiable by anyone holding the file. */
  async deliverFile(f: PayrollFile): Promise<DeliveredFile> {
    const { delivery, answer } = await this.perform('payroll_files', f, async (port) => {
      const file = await port.deliverFile(f);
      return { reference: `sha256:${file.sha256}`, answer: { path: file.path, sha256: file.sha256 } };
    });
    return { ...delivery, path: String(answer.path), sha256: String(answer.sha256) };
  }

  /** A streamed file (candidate exports): the same run and reference as deliverFile. */
  async deliverFileStream(f: StreamedFile): Promise<DeliveredFile> {
    const { delivery, answer } = await this.perform('payroll_files', f, async (port) => {
      if (!port.deliverFileStream) throw new DomainError('conflict', 'connector_unsupported', 'The file connector in use cannot deliver streamed files');
      const file = await port.deliverFileStream(f);
      return { reference: `sha256:${file.sha256}`, answer: { path: file.path, sha256: file.sha256 } };
    });
    return { ...delivery, path: String(answer.path), sha256: String(answer.sha256) };
  }

  async syncTeamMember(m: PosTeamMember): Promise<SyncedTeamMember> {
    return this.teamMember(m, (port) => port.syncTeamMember(m));
  }

  async deactivateTeamMember(r: PosDeactivation): Promise<SyncedTeamMember> {
    return this.teamMember(r, (port) => port.deactivateTeamMember(r));
  }

  private async teamMember(base: DeliveryBase, step: (port: PosConnector) => Promise<SyncedTeamMember>): Promise<SyncedTeamMember> {
    const { delivery, answer } = await this.perform('pos', base, async (port) => {
      const member = await step(port);
      // A file-based POS acknowledges a file, not a member: the run holds the file's checksum, as for payroll files.
      if (member.file)
        return { reference: `sha256:${member.file.sha256}`, answer: { teamMemberId: member.teamMemberId, path: member.file.path, sha256: member.file.sha256 } };
      return { reference: member.teamMemberId, answer: { teamMemberId: member.teamMemberId } };
    });
    const file = typeof answer.path === 'string' && typeof answer.sha256 === 'string' ? { file: { path: answer.path, sha256: answer.sha256 } } : {};
    return { ...delivery, teamMemberId: String(answer.teamMemberId), ...file };
  }

  /** The onboarding link is single use and short-lived: it passes through from the call, never into the run. */
  async startOnboarding(w: PayoutWorker): Promise<PayoutOnboarding> {
    let onboardingUrl: string | undefined;
    const { delivery, answer } = await this.perform('payouts', w, async (port) => {
      const onboarding = await port.startOnboarding(w);
      onboardingUrl = onboarding.onboardingUrl;
      const livemode = onboarding.livemode ?? true;
      return { reference: onboarding.accountId, answer: { accountId: onboarding.accountId, expiresAt: onboarding.expiresAt.toISOString(), livemode } };
    });
    // The provider's own mode (a Stripe test key: livemode false) for what it created.
    const livemode = typeof answer.livemode === 'boolean' ? answer.livemode : delivery.livemode;
    return { ...delivery, livemode, accountId: String(answer.accountId), onboardingUrl: onboardingUrl ?? '', expiresAt: new Date(String(answer.expiresAt)) };
  }

  async transfer(m: PayoutMoney): Promise<PayoutMovement> {
    return this.move(m, 'transfer');
  }

  async instantPayout(m: PayoutMoney): Promise<PayoutMovement> {
    return this.move(m, 'instantPayout');
  }

  private async move(m: PayoutMoney, method: 'transfer' | 'instantPayout'): Promise<PayoutMovement> {
    const { delivery, answer } = await this.perform('payouts', m, async (port) => {
      const move = port[method];
      if (!move)
        throw new DomainError(
          'conflict',
          'connector_unsupported',
          `The payouts connector in use cannot perform ${method === 'transfer' ? 'transfers' : 'instant payouts'}`,
        );
      const moved = await move.call(port, m);
      return { reference: moved.providerId, answer: { providerId: moved.providerId, status: moved.status, livemode: moved.livemode ?? true } };
    });
    const livemode = typeof answer.livemode === 'boolean' ? answer.livemode : delivery.livemode;
    return { ...delivery, livemode, providerId: String(answer.providerId), status: String(answer.status) };
  }

  private async deliver<K extends 'email' | 'sms'>(kind: K, base: DeliveryBase, send: (port: PortsByKind[K]) => Promise<Delivery>): Promise<Delivery> {
    return (
      await this.perform(kind, base, async (port) => {
        const sent = await send(port);
        return { reference: sent.reference ?? sent.deliveryId, ...(sent.details ? { answer: sent.details } : {}) };
      })
    ).delivery;
  }

  private async perform<K extends ConnectorKind>(
    kind: K,
    base: DeliveryBase,
    step: (port: PortsByKind[K]) => Promise<{ reference: string; answer?: Record<string, unknown> }>,
  ): Promise<{ delivery: Delivery; answer: Record<string, unknown> }> {
    const start = {
      organizationId: base.organizationId,
      idempotencyKey: base.idempotencyKey,
      action: base.actionKey,
      hook: this.hookOf(base.actionKey, kind),
      step: kind,
    };
    let resolved: ResolvedPort<K>;
    try {
      resolved = await this.resolver.resolve(base.organizationId, kind, base.actionKey);
    } catch (error) {
      if (!isDomainError(error)) throw error;
      // Nothing can perform the step (connection_missing): the organization sees a failed run saying so.
      const run = await this.runner.perform({ ...start, connector: 'none', connectionId: null, livemode: true }, () => Promise.reject(error));
      return { delivery: { deliveryId: run.id, ...(run.reference ? { reference: run.reference } : {}), livemode: run.livemode }, answer: run.result ?? {} };
    }
    const run = await this.runner.perform({ ...start, connector: resolved.connector, connectionId: resolved.connectionId, livemode: resolved.livemode }, () =>
      step(resolved.port),
    );
    return {
      delivery: { deliveryId: run.id, ...(run.reference ? { reference: run.reference } : {}), livemode: run.livemode },
      answer: run.result ?? {},
    };
  }
}
