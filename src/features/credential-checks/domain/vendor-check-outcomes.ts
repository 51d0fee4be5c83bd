/**
 * The requirement outcomes of the background check a listing's policy orders when an
 * application arrives (the background-checks feature implements it): `pending` while the
 * vendor works, then what its signed result decided; `missing` with `contact_email_missing`
 * when the application gave no email to send the vendor's invitation to. They join the
 * application's credential check beside the listing's own requirements.
 */
import type { RequirementOutcome } from './match-requirements';

export interface VendorCheckedApplication {
  id: string;
  listingId: string;
  contact?: { email: string } | null;
}

export interface VendorCheckOutcomes {
  /** Per application id; absent when its listing has no policy or the organization does not hold the policy's action. */
  of(organizationId: string, applications: VendorCheckedApplication[]): Promise<Map<string, RequirementOutcome[]>>;
}

export const VENDOR_CHECK_OUTCOMES = Symbol('VendorCheckOutcomes');

export const noVendorCheckOutcomes: VendorCheckOutcomes = { of: async () => new Map() };
