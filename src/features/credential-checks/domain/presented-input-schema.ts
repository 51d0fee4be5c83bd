/** What a caller may present for a check (the API body and the credentials.presented hook share it). */
import { z } from 'zod';

const MAX_CREDENTIALS = 20;

const vcJwtInput = z
  .object({
    format: z.literal('vc+jwt'),
    credential: z
      .string()
      .min(1)
      .max(64 * 1024)
      .meta({ description: 'A VC-JWT (VC Data Model 2.0 secured with JOSE, or the v1.1 vc claim form); Open Badges 3.0 credentials included' }),
  })
  .strict();

const dataIntegrityInput = z
  .object({
    format: z.literal('vc+ld+json'),
    credential: z.record(z.string(), z.unknown()).meta({
      description:
        'A Verifiable Credential (JSON-LD) secured with a Data Integrity proof, cryptosuite eddsa-rdfc-2022; Open Badges 3.0 credentials included. At most 64 KiB',
    }),
  })
  .strict();

/** A credential with a proof (what an employee may present: a title alone proves nothing about them). */
export const verifiableCredentialInputSchema = z.discriminatedUnion('format', [vcJwtInput, dataIntegrityInput]);

export const presentedInputSchema = z.discriminatedUnion('format', [
  vcJwtInput,
  dataIntegrityInput,
  z
    .object({
      format: z.literal('self_reported'),
      title: z.string().trim().min(1).max(200),
      issuer: z.string().trim().min(1).max(300),
      valid_until: z.iso.datetime({ offset: true }).nullable().optional(),
    })
    .strict(),
]);

export const presentedCredentialsSchema = z.array(presentedInputSchema).max(MAX_CREDENTIALS);
