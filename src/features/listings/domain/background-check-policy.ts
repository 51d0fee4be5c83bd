/**
 * A listing's background-check policy: the vendor package ordered automatically when an
 * application arrives (`background_checks.run_check`, or `route_verification` for a driver),
 * and where the person will work (the vendor's screening rules depend on it). Kept beside the
 * listing's credential requirements; the check decides the requirement keys of its purpose
 * (`background_check`, or `driver_license` and `motor_vehicle_record`). A listing with a policy
 * requires a contact email on applications: the vendor's consent invitation goes there.
 */
import { z } from 'zod';

const code = z.string().regex(/^[A-Z]{2}$/, 'two capital letters (ISO 3166)');

export const backgroundCheckPolicySchema = z
  .object({
    package: z
      .string()
      .regex(/^[a-z0-9_]{1,64}$/, 'lowercase letters, digits and _ (at most 64)')
      .meta({ description: "The vendor's package slug (Checkr: `tasker_standard`, `driver_pro`, …)", example: 'tasker_standard' }),
    purpose: z
      .enum(['standard', 'driver'])
      .default('standard')
      .meta({ description: '`standard`: background_checks.run_check; `driver`: background_checks.route_verification (motor-vehicle record)' }),
    work_location: z
      .object({
        country: code.meta({ example: 'US' }),
        state: code.optional().meta({ description: 'Required for a US work location', example: 'CA' }),
        city: z.string().trim().min(1).max(100).optional(),
      })
      .strict()
      .refine((l) => l.country !== 'US' || l.state !== undefined, { message: 'state is required for a US work location', path: ['state'] }),
  })
  .strict()
  .meta({
    id: 'BackgroundCheckPolicy',
    description:
      'Ordered from the vendor when an application arrives (organizations holding background_checks.run_check, or route_verification for driver); applications then need contact.email',
  });

export type BackgroundCheckPolicy = z.output<typeof backgroundCheckPolicySchema>;

export interface ListingBackgroundCheckPolicies {
  get(organizationId: string, listingId: string): Promise<BackgroundCheckPolicy | null>;
  getMany(organizationId: string, listingIds: string[]): Promise<Map<string, BackgroundCheckPolicy>>;
  /** Sets the listing's policy; null removes it. */
  put(organizationId: string, listingId: string, policy: BackgroundCheckPolicy | null): Promise<void>;
}

export const LISTING_BACKGROUND_CHECK_POLICIES = Symbol('ListingBackgroundCheckPolicies');
