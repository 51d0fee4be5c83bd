import { z } from 'zod';
import { listOf, nullableDateTime } from '../../../platform/http/common-schemas';
import { credentialRequirementSchema } from '../domain/credential-requirements';
import { backgroundCheckPolicySchema } from '../domain/background-check-policy';

const listingQuestion = z.object({
  key: z.string().meta({ example: 'years_experience' }),
  label: z.string(),
  type: z.enum(['number', 'boolean', 'text', 'select']),
  required: z.boolean(),
  options: z.array(z.string()).optional().meta({ description: 'Only for select' }),
});

/** A listing as the organization's ATS manages it (the public view is PublicListing). */
export const listingSchema = z
  .object({
    id: z.string().meta({ example: 'listing_HNKlZK814ei1Ofqzhm8C' }),
    object: z.literal('listing'),
    external_id: z.string().nullable().meta({ description: "The ATS's own id of the listing" }),
    title: z.string(),
    description: z.string().nullable(),
    location: z.string().nullable(),
    status: z.enum(['open', 'closed']),
    questions: z.array(listingQuestion),
    requirements: z.array(credentialRequirementSchema).meta({ description: 'The credentials an applicant must hold (docs/credentials.md)' }),
    background_check: backgroundCheckPolicySchema.nullable().meta({
      description: 'The background check ordered automatically when an application arrives (docs/credentials.md); null when none',
    }),
    created_at: nullableDateTime,
    updated_at: nullableDateTime,
  })
  .meta({
    id: 'Listing',
    example: {
      id: 'listing_HNKlZK814ei1Ofqzhm8C',
      object: 'listing',
      external_id: 'eng-7',
      title: 'Staff Engineer',
      description: null,
      location: 'Remote',
      status: 'open',
      questions: [{ key: 'years_experience', label: 'Years of experience', type: 'number', required: true }],
      requirements: [
        {
          key: 'rn_license',
          label: 'RN license from a state board',
          credential_type: 'License',
          issuers: ['did:web:rn.board.example'],
          min_validity_days: 30,
          verified_source_required: true,
        },
      ],
      background_check: null,
      created_at: '2026-11-24T09:30:00.000Z',
      updated_at: '2026-11-24T09:30:00.000Z',
    },
  });

export const listingListSchema = listOf(listingSchema);
