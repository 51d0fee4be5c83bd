/**
 * The vendor steps of the background-check actions, each an action run (recorded before the
 * vendor is called, `succeeded` only on its answer, failed with a stable code), through the
 * organization's resolved background_checks connection (or the sandbox outside production).
 * Reads (reports, records, webhook verification) are not runs: they change nothing.
 */
import { isDomainError } from '../../../kernel/errors';
import type { ActionRunner } from '../../action-runs/domain/action-runner';
import type { ConnectorResolver } from '../../connections/domain/connector-resolver';
import type { BackgroundCheckConnector, BackgroundCheckOrder, MonitoringEnrollment } from '../../hooks/domain/connectors';

export interface OrderAnswer {
  runId: string;
  connector: string;
  livemode: boolean;
  vendorCandidateId: string;
  invitationId: string;
  invitationUrl: string | null;
}

export class VendorSteps {
  constructor(
    private readonly resolver: ConnectorResolver,
    private readonly runner: ActionRunner,
  ) {}

  async port(organizationId: string, action: string): Promise<{ port: BackgroundCheckConnector; connector: string }> {
    const resolved = await this.resolver.resolve(organizationId, 'background_checks', action);
    return { port: resolved.port, connector: resolved.connector };
  }

  async order(order: BackgroundCheckOrder, hook: string): Promise<OrderAnswer> {
    // The invitation URL is the candidate's own link: it passes through to the check, never into the run.
    let invitationUrl: string | null = null;
    const { run, connector } = await this.perform(order.organizationId, order.actionKey, order.idempotencyKey, hook, async (port) => {
      const ordered = await port.orderCheck(order);
      invitationUrl = ordered.invitationUrl;
      return { reference: ordered.invitationId, answer: { vendorCandidateId: ordered.vendorCandidateId, invitationId: ordered.invitationId } };
    });
    return {
      runId: run.id,
      connector,
      livemode: run.livemode,
      vendorCandidateId: String(run.result?.vendorCandidateId),
      invitationId: String(run.result?.invitationId),
      invitationUrl,
    };
  }

  async enroll(enrollment: MonitoringEnrollment, hook: string): Promise<{ runId: string; subscriptionId: string; livemode: boolean }> {
    const { run } = await this.perform(enrollment.organizationId, enrollment.actionKey, enrollment.idempotencyKey, hook, async (port) => {
      const subscription = await port.enrollMonitoring(enrollment);
      return { reference: subscription.subscriptionId, answer: { subscriptionId: subscription.subscriptionId } };
    });
    return { runId: run.id, subscriptionId: String(run.result?.subscriptionId), livemode: run.livemode };
  }

  private async perform(
    organizationId: string,
    action: string,
    idempotencyKey: string,
    hook: string,
    step: (port: BackgroundCheckConnector) => Promise<{ reference: string; answer: Record<string, unknown> }>,
  ) {
    const start = { organizationId, idempotencyKey, action, hook, step: 'background_checks' };
    let resolved;
    try {
      resolved = await this.resolver.resolve(organizationId, 'background_checks', action);
    } catch (error) {
      if (!isDomainError(error)) throw error;
      // Nothing can perform the step (connection_missing): a failed run says so, and the error goes on.
      await this.runner.perform({ ...start, connector: 'none', connectionId: null, livemode: true }, () => Promise.reject(error));
      throw error;
    }
    const run = await this.runner.perform({ ...start, connector: resolved.connector, connectionId: resolved.connectionId, livemode: resolved.livemode }, () =>
      step(resolved.port),
    );
    return { run, connector: resolved.connector };
  }
}
