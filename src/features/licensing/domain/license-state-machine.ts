/**
 * The license state machine, pure. `failed` and `deactivated` are final: activating the
 * action again makes a new license, so each license's history reads in one direction.
 *
 *   (none) ──activate──▶ provisioning ──provisioned──▶ active ──deactivate──▶ deactivated
 *     │                       │  └──────────deactivate──────────────────────▶ deactivated
 *     │                       └──provisioning_failed──▶ failed
 *     └─activate, a connection missing─▶ requires_connection ──connection_ready──▶ provisioning
 *                                               └──deactivate──▶ deactivated
 */
import { conflict } from '../../../kernel/errors';
import type { LicenseStatus } from './license';

export type LicenseEvent = 'connection_ready' | 'provisioned' | 'provisioning_failed' | 'deactivate';

const TRANSITIONS: Record<LicenseStatus, Partial<Record<LicenseEvent, LicenseStatus>>> = {
  requires_connection: { connection_ready: 'provisioning', deactivate: 'deactivated' },
  provisioning: { provisioned: 'active', provisioning_failed: 'failed', deactivate: 'deactivated' },
  active: { deactivate: 'deactivated' },
  failed: {},
  deactivated: {},
};

export function nextLicenseStatus(from: LicenseStatus, event: LicenseEvent): LicenseStatus | undefined {
  return TRANSITIONS[from][event];
}

/** The states an event may leave from: storage updates only rows still in one of them. */
export function licenseStatusesAllowing(event: LicenseEvent): LicenseStatus[] {
  return (Object.keys(TRANSITIONS) as LicenseStatus[]).filter((from) => TRANSITIONS[from][event] !== undefined);
}

export function requireLicenseTransition(from: LicenseStatus, event: LicenseEvent): LicenseStatus {
  const next = nextLicenseStatus(from, event);
  if (!next) throw conflict('invalid_license_state', `A ${from} license cannot ${event.replace('_', ' ')}`);
  return next;
}
