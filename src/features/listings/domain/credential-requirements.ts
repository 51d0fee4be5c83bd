/**
 * What a listing requires of an applicant's credentials: a credential type, the issuers the
 * organization trusts for it, how long it must still be valid, and whether only a
 * cryptographically verified source counts. The host owns listings; the plugin keeps the
 * requirements beside them, keyed by the listing id (any host, not only the standalone one).
 */
import { z } from 'zod';

export const REQUIREMENTS_PER_LISTING = 20;

export const credentialRequirementSchema = z
  .object({
    key: z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,62}$/, 'lowercase letters, digits and _, starting with a letter')
      .meta({ example: 'rn_license' }),
    label: z.string().trim().min(1).max(200).meta({ example: 'RN license from a state board' }),
    credential_type: z.string().trim().min(1).max(200).meta({
      description:
        "The type the credential must carry (a VC `type` entry or an Open Badges achievement's `achievementType`; compared without case. A self-reported credential matches by its title)",
      example: 'License',
    }),
    issuers: z
      .array(z.string().min(1).max(500))
      .max(50)
      .default([])
      .meta({ description: 'The issuers trusted for this requirement (DIDs such as did:web:rn.board.example); empty: any issuer whose proof checks out' }),
    min_validity_days: z.number().int().min(0).max(3650).default(0).meta({ description: 'Days the credential must still be valid on the day of the check' }),
    verified_source_required: z
      .boolean()
      .default(true)
      .meta({ description: 'Only a credential whose proof checks out meets it; false also accepts a self-reported credential of that name' }),
  })
  .strict();

export type CredentialRequirement = z.output<typeof credentialRequirementSchema>;

export const credentialRequirementsSchema = z
  .array(credentialRequirementSchema)
  .max(REQUIREMENTS_PER_LISTING)
  .refine((list) => new Set(list.map((r) => r.key)).size === list.length, 'requirement keys must be unique');

/** The plugin's own store of requirements, one list per listing of an organization. */
export interface ListingRequirementsStore {
  get(organizationId: string, listingId: string): Promise<CredentialRequirement[]>;
  getMany(organizationId: string, listingIds: string[]): Promise<Map<string, CredentialRequirement[]>>;
  /** Replaces the listing's requirements (an empty list removes them). */
  put(organizationId: string, listingId: string, requirements: CredentialRequirement[]): Promise<void>;
}

export const LISTING_REQUIREMENTS_STORE = Symbol('ListingRequirementsStore');
