/** The provider's profile answer, checked before anything of it is stored. */
import { z } from 'zod';
import type { ProviderProfile } from '../domain/provider-profile';
import { profileUserIdFor } from '../domain/profile-user-id';
import { applyProfileMapping, IDENTITY_MAPPING, providerFieldName, type ProfileMapping } from './profile-mapping';

/** A real calendar day (2023-02-30 is not), optionally followed by a time. */
const isCalendarDate = (value: string) => {
  const day = value.slice(0, 10);
  const time = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === day;
};

const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}/, 'a YYYY-MM-DD date')
  .refine(isCalendarDate, 'a YYYY-MM-DD date');

/** The provider's own name for the candidate (an OpenID Connect `sub`, a numeric id, …): printable, at most 255 characters (OIDC Core §2). */
const subject = z
  .union([z.string(), z.number().int().nonnegative()])
  .transform(String)
  .pipe(z.string().regex(/^[\x21-\x7e]{1,255}$/, 'a subject of 1–255 printable ASCII characters'));

export const providerProfileSchema = z.object({
  id: subject,
  name: z.string().min(1).max(200),
  headline: z.string().max(500).nullable().default(null),
  profile_url: z.url(),
  skills: z
    .array(z.object({ name: z.string().min(1).max(200), verified: z.boolean() }))
    .max(500)
    .default([]),
  credentials: z
    .array(z.object({ title: z.string().min(1).max(300), issuer: z.string().min(1).max(300), verified: z.boolean(), issued_at: date }))
    .max(200)
    .default([]),
  positions: z
    .array(
      z.object({
        title: z.string().min(1).max(300),
        company: z.string().min(1).max(300),
        start_date: date,
        end_date: date.nullable().default(null),
        verified: z.boolean().optional(),
      }),
    )
    .max(200)
    .default([]),
  // A malformed email claim is dropped, not a refused profile: the email only prefills a form field.
  email: z.email().max(254).optional().catch(undefined),
  email_verified: z.boolean().optional().catch(undefined),
});

export type ParsedProfile = { profile: ProviderProfile } | { problem: string };

/**
 * Reads the answer through the mapping and checks it; a refusal names the provider's own
 * field (`employment[2].from: a YYYY-MM-DD date`), never its value. The provider's subject
 * becomes our profile_user_id (profile-user-id.ts), derived per `provider`.
 */
export function parseProviderProfile(body: unknown, mapping: ProfileMapping = IDENTITY_MAPPING, provider = ''): ParsedProfile {
  const result = providerProfileSchema.safeParse(applyProfileMapping(mapping, body));
  if (result.success) return { profile: { ...result.data, id: profileUserIdFor(provider, result.data.id) } as ProviderProfile };
  const issue = result.error.issues[0]!;
  return { problem: `${providerFieldName(mapping, issue.path)}: ${issue.message}` };
}
