/** Helpers for the licensing tests: reading licenses and subscriptions until they settle, and failure plans. */
import { SandboxProvisioningFaults, type FaultPlan } from '../../src/connectors/sandbox/sandbox-provisioning-faults';
import { waitFor } from './profile-flow';
import type { TestHost } from './test-host';

export const SETTLED_LICENSE = ['active', 'failed', 'deactivated'];

export async function licenseOf(t: TestHost, apiKey: string, licenseId: string): Promise<any> {
  const list = await t.request('GET', '/v1/integrations/licenses', { auth: apiKey });
  return list.body.data.find((l: { id: string }) => l.id === licenseId);
}

/** Waits until the license leaves `provisioning`. */
export function settledLicense(t: TestHost, apiKey: string, licenseId: string, timeoutMs = 20_000): Promise<any> {
  return waitFor(
    async () => {
      const license = await licenseOf(t, apiKey, licenseId);
      return license && SETTLED_LICENSE.includes(license.status) ? license : undefined;
    },
    `license ${licenseId} to settle`,
    timeoutMs,
  );
}

export async function subscriptionOf(t: TestHost, apiKey: string, subscriptionId: string): Promise<any> {
  const list = await t.request('GET', '/v1/integrations/subscriptions', { auth: apiKey });
  return list.body.data.find((s: { id: string }) => s.id === subscriptionId);
}

export function settledSubscription(t: TestHost, apiKey: string, subscriptionId: string, timeoutMs = 20_000): Promise<any> {
  return waitFor(
    async () => {
      const subscription = await subscriptionOf(t, apiKey, subscriptionId);
      return subscription && subscription.status !== 'provisioning' ? subscription : undefined;
    },
    `subscription ${subscriptionId} to settle`,
    timeoutMs,
  );
}

export function planFault(t: TestHost, plan: FaultPlan): Promise<void> {
  return new SandboxProvisioningFaults(t.database.db).plan(plan);
}

export function faultsInjected(t: TestHost, organizationId: string, actionKey: string): Promise<number> {
  return new SandboxProvisioningFaults(t.database.db).injected(organizationId, actionKey);
}

/** Events the plugin published on the standalone host's hook bus for an organization. */
export function eventsOf(t: TestHost, organizationId: string, hook?: string): { hook: string; payload: Record<string, unknown> }[] {
  return t.host.hooks.recent.filter((e) => e.organizationId === organizationId && (!hook || e.hook === hook));
}
